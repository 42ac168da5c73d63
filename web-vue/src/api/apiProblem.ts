/**
 * One typed problem for every way a request can fail (RFC 9457 problem+json from the
 * API or the BFF, a proxy's bare 502/503/504, an empty body, a failed connection, the
 * SPA's own abort). The SPA words every problem itself (messages.ts); the servers'
 * `title` and `detail` are kept for logs only.
 */
// The API's error codes: the one catalog's (contract/src/errors.ts), the spec's `ErrorCode`.
import type { ErrorCode } from '@tidewater/contract/errors';
import { ConnectionFailed, RequestStopped, RequestTimedOut } from './requestErrors.ts';

/**
 * What went wrong, as the SPA names it:
 * - an `ErrorCode` from a problem+json body (any 503 reads `SERVICE_UNAVAILABLE`);
 * - `HTTP_<status>` for an answer with no code (a proxy's page, an empty body, `HTTP_503`);
 * - `CONNECTION_FAILED`: no answer at all; `TIMED_OUT`: the SPA's own abort;
 *   `STOPPED`: the visitor stopped a read; `UNREADABLE_RESPONSE`: a success we could not read;
 *   `SENDING_ELSEWHERE`: a send this tab held back because another tab sends its key.
 */
export type ProblemCode =
  | ErrorCode
  | `HTTP_${number}`
  | 'CONNECTION_FAILED'
  | 'TIMED_OUT'
  | 'STOPPED'
  | 'UNREADABLE_RESPONSE'
  /** Not sent: another tab of this browser is sending the same key right now (adr/0051). */
  | 'SENDING_ELSEWHERE';

/** A failed request, as a value. */
export interface ApiProblem {
  code: ProblemCode;
  /** The HTTP status, or null when nothing answered. */
  status: number | null;
  /** Seconds the answer asked us to wait (body first, then Retry-After). */
  retryAfterSeconds?: number;
  /** Money sends only: false = nothing moved; true = it landed. Absent = unknown. */
  applied?: boolean;
  traceId?: string;
  /** The JSON pointers of the body's fields a 400 named (`errors[].pointer`, `#/amountMinor`), so a form can show the refusal at its field. */
  pointers?: string[];
  /** The server's own words, for logs; never shown. */
  title?: string;
  detail?: string;
}

/** Parses a body's text as JSON when it is JSON; the text itself otherwise; undefined when empty. */
export function parseBodyText(text: string): unknown {
  if (text.trim() === '') return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}

/** Seconds from a Retry-After header (delta-seconds or an HTTP-date), or undefined. */
export function retryAfterHeaderSeconds(value: string | null, nowMs = Date.now()): number | undefined {
  if (value === null || value.trim() === '') return undefined;
  if (/^\d+$/.test(value.trim())) return Number(value.trim());
  const date = Date.parse(value);
  return Number.isNaN(date) ? undefined : Math.max(0, Math.ceil((date - nowMs) / 1000));
}

/** The parts of a Response we read (duck-typed: test DOMs bring their own Response class). */
interface ResponseLike {
  status: number;
  headers: { get(name: string): string | null };
}

function isResponseLike(value: unknown): value is ResponseLike {
  return isObject(value) && typeof value.status === 'number' && isObject(value.headers) && typeof value.headers.get === 'function';
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * Turns a thrown error, or a failed Response with its already-read body, into one
 * `ApiProblem`. A 503 is `SERVICE_UNAVAILABLE` whatever its body says when the body is
 * JSON, and `HTTP_503` when it is not; a failed fetch is `CONNECTION_FAILED`.
 */
export function toApiProblem(failure: unknown, body?: unknown): ApiProblem {
  if (failure instanceof RequestTimedOut) return { code: 'TIMED_OUT', status: null };
  if (failure instanceof RequestStopped) return { code: 'STOPPED', status: null };
  if (failure instanceof ConnectionFailed || failure instanceof TypeError) return { code: 'CONNECTION_FAILED', status: null };
  if (!isResponseLike(failure)) return { code: 'UNREADABLE_RESPONSE', status: null };

  const status = failure.status;
  const parsed = typeof body === 'string' ? parseBodyText(body) : body;
  const problem: ApiProblem = { code: `HTTP_${status}`, status };
  if (isObject(parsed)) {
    if (typeof parsed.errorCode === 'string') problem.code = parsed.errorCode as ErrorCode;
    if (status === 503) problem.code = 'SERVICE_UNAVAILABLE';
    if (typeof parsed.retryAfterSeconds === 'number' && parsed.retryAfterSeconds >= 0) problem.retryAfterSeconds = parsed.retryAfterSeconds;
    if (typeof parsed.applied === 'boolean') problem.applied = parsed.applied;
    if (typeof parsed.traceId === 'string') problem.traceId = parsed.traceId;
    if (typeof parsed.title === 'string') problem.title = parsed.title;
    if (typeof parsed.detail === 'string') problem.detail = parsed.detail;
    const pointers = Array.isArray(parsed.errors) ? parsed.errors.flatMap((entry) => (isObject(entry) && typeof entry.pointer === 'string' ? [entry.pointer] : [])) : [];
    if (pointers.length > 0) problem.pointers = pointers;
  }
  if (problem.retryAfterSeconds === undefined) {
    const fromHeader = retryAfterHeaderSeconds(failure.headers.get('Retry-After'));
    if (fromHeader !== undefined) problem.retryAfterSeconds = fromHeader;
  }
  return problem;
}

/**
 * True for the outage, whoever reported it: any 503 (the API's, the BFF's, a proxy's)
 * and the SPA's own abort. Asked before any connection branch, because an outage has
 * one sentence wherever it shows.
 */
export function isServiceOutage(problem: ApiProblem): boolean {
  return problem.status === 503 || problem.code === 'TIMED_OUT';
}

/** True when nothing answered at all (no HTTP status), the abort and a stop included. */
export function hasNoStatus(problem: ApiProblem): boolean {
  return problem.status === null;
}
