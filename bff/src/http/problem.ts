/**
 * The BFF's own problem answers (RFC 9457 application/problem+json, the API's Problem
 * shape: adr/0001). The BFF answers only the few codes below itself;
 * everything else it passes through from the API as it came. Status, title and type are
 * the one catalog's (contract/src/errors.ts, the API's too), and so is the builder, so a
 * visitor cannot tell who wrote a problem except by its detail.
 */
import type { Response } from 'express';
import { errorCatalog, problemBody as catalogProblem, type ProblemBody as CatalogProblem } from '@tidewater/contract/errors';
import { requestSpanOf, traceparentOf, writeProblem } from '@tidewater/contract/http';
import { noteUnavailable } from '../metrics.ts';

export { problemType } from '@tidewater/contract/errors';

/** The codes the BFF answers on its own. */
const bffCodes = [
  'VALIDATION_FAILED',
  'MALFORMED_JSON',
  'UNAUTHENTICATED',
  'FORBIDDEN',
  'NOT_FOUND',
  'METHOD_NOT_ALLOWED',
  'PAYLOAD_TOO_LARGE',
  'UNSUPPORTED_MEDIA_TYPE',
  'HEADERS_TOO_LARGE',
  'INTERNAL',
  'SERVICE_UNAVAILABLE',
] as const;

/** A code the BFF answers itself. */
export type BffErrorCode = (typeof bffCodes)[number];

/** The codes the BFF answers on its own, with the catalog's status and title. */
export const bffProblems = Object.fromEntries(bffCodes.map((code) => [code, errorCatalog[code]])) as {
  readonly [C in BffErrorCode]: (typeof errorCatalog)[C];
};

/** The wire shape (components.schemas.Problem). The BFF never sets `applied`: only the API knows. */
export type ProblemBody = Omit<CatalogProblem<BffErrorCode>, 'applied'>;

/** Builds a problem body. */
export function problemBody(
  code: BffErrorCode,
  traceId: string,
  detail?: string,
  retryAfterSeconds?: number,
): ProblemBody {
  return catalogProblem(code, traceId, detail, retryAfterSeconds !== undefined ? { retryAfterSeconds } : {});
}

/**
 * Writes a problem: a 503 names its wait in Retry-After and is never cached; nothing is
 * written to a visitor who hung up (a 499 has no body).
 */
function sendProblem(res: Response, body: ProblemBody): void {
  if (res.headersSent || res.destroyed) return;
  writeProblem(res, body);
}

/** The traceId of this request (set by the request log). */
export function traceIdOf(res: Response): string {
  return String(res.getHeader('X-Trace-Id') ?? '');
}

/** What a call to the API carries of this request: its traceId and a traceparent naming the BFF's span as the parent. */
export interface UpstreamTrace {
  traceId: string;
  traceparent?: string;
}

/** This request's {@link UpstreamTrace} (its span is started by the request log). */
export function upstreamTraceOf(res: Response): UpstreamTrace {
  const span = requestSpanOf(res);
  return span ? { traceId: span.traceId, traceparent: traceparentOf(span) } : { traceId: traceIdOf(res) };
}

/** Answers a problem with this request's traceId. */
export function answerProblem(
  res: Response,
  code: BffErrorCode,
  detail?: string,
  retryAfterSeconds?: number,
): void {
  sendProblem(res, problemBody(code, traceIdOf(res), detail, retryAfterSeconds));
}

/** Answers the BFF's own 503 (SERVICE_UNAVAILABLE, Retry-After, no-store, no `applied`). */
export function answerUnavailable(res: Response, detail: string, retryAfterSeconds: number): void {
  noteUnavailable(res, 'bff_other');
  answerProblem(res, 'SERVICE_UNAVAILABLE', detail, retryAfterSeconds);
}
