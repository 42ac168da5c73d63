/**
 * The BFF's own calls to the API (sign-up, sign-in, profile, refresh, revoke, readiness),
 * made with the API's generated client (openapi-fetch on spec/generated/openapi.ts), so
 * each path, body and answer is typed from the spec. Each call has its own budget, is
 * never retried, carries the request's trace (X-Trace-Id and traceparent), and its result is a value: the API's
 * answer (any status, body read whole: these bodies are small), or why there was none.
 * The transport is undici's `request` on one keep-alive pool, which the streaming proxy
 * of `/api/*` shares.
 */
import createClient, { type Client } from 'openapi-fetch';
import type { paths } from '@tidewater/spec/openapi';
import { Agent, request, type Dispatcher } from 'undici';
import { childTraceparent } from '@tidewater/contract/http';
import { upstreamAbort, upstreamFailureOf, type UpstreamFailure } from './upstreamFailure.ts';

/** The API answered. */
export interface ApiAnswer<T = unknown> {
  kind: 'answer';
  status: number;
  headers: Record<string, string | string[] | undefined>;
  /** The body exactly as it came (passed through on a refusal). */
  body: Buffer;
  /** The body of a 2xx as the spec types it; undefined for any other status or a body that is not JSON. */
  data: T | undefined;
}

/** The API did not answer. */
export interface ApiNoAnswer {
  kind: 'noAnswer';
  failure: UpstreamFailure;
  error: unknown;
}

/** The limits and identity of one call. */
interface CallLimits {
  traceId: string;
  /** The BFF's span as the parent (upstreamTraceOf); absent (a renewal, a revoke), a new span id under the same trace id. */
  traceparent?: string;
  timeoutMs: number;
  bearer?: string;
  /** The visitor's address (X-Forwarded-For): the API counts failed sign-ins by it. */
  visitorAddress?: string;
  /** Also ends the call (the visitor hung up); omit for calls that must finish regardless. */
  signal?: AbortSignal;
}

/** What a call hands to its openapi-fetch request: spread it into the request's options. */
type CallInit = {
  headers: Record<string, string>;
  fetch: (request: Request) => Promise<Response>;
};

/** One typed request, e.g. `(client, init) => client.POST('/api/auth/refresh', { ...init, body })`. */
type SendCall<T> = (client: Client<paths>, init: CallInit) => Promise<{ data?: T; response: Response }>;

/** The API client of one BFF process. */
export interface ApiClient {
  readonly apiUrl: string;
  readonly dispatcher: Dispatcher;
  call<T>(limits: CallLimits, send: SendCall<T>): Promise<ApiAnswer<T> | ApiNoAnswer>;
  close(): Promise<void>;
}

/** Statuses whose Response must have no body. */
const NULL_BODY_STATUSES = new Set([101, 204, 205, 304]);

/** undici's header record as fetch Headers (repeated headers appended, not joined by hand). */
function toHeaders(raw: Record<string, string | string[] | undefined>): Headers {
  const headers = new Headers();
  for (const [name, value] of Object.entries(raw)) {
    for (const one of Array.isArray(value) ? value : value === undefined ? [] : [value])
      headers.append(name, one);
  }
  return headers;
}

/** A keep-alive pool to the API; undici's own timeouts are off, since every call carries its budget. */
export function createApiClient(apiUrl: string): ApiClient {
  const dispatcher = new Agent({ headersTimeout: 0, bodyTimeout: 0, connectTimeout: 10_000 });
  const client = createClient<paths>({ baseUrl: apiUrl });
  return {
    apiUrl,
    dispatcher,
    async call({ traceId, traceparent, timeoutMs, bearer, visitorAddress, signal: visitorSignal }, send) {
      const abort = upstreamAbort(timeoutMs, visitorSignal);
      const headers: Record<string, string> = { accept: 'application/json', 'x-trace-id': traceId };
      const parent = traceparent ?? childTraceparent(traceId);
      if (parent) headers.traceparent = parent;
      if (bearer) headers.authorization = `Bearer ${bearer}`;
      if (visitorAddress) headers['x-forwarded-for'] = visitorAddress;
      let received: Omit<ApiAnswer, 'kind' | 'data'> | undefined;
      // openapi-fetch builds the request (path, JSON body, content-type) and parses the
      // answer; undici sends it on the pool, and the raw answer is kept for pass-through.
      const transport = async (outgoing: Request): Promise<Response> => {
        const answer = await request(outgoing.url, {
          method: outgoing.method as Dispatcher.HttpMethod,
          headers: Object.fromEntries(outgoing.headers),
          body: outgoing.body ? Buffer.from(await outgoing.arrayBuffer()) : undefined,
          signal: abort.signal,
          dispatcher,
        });
        const body = Buffer.from(await answer.body.arrayBuffer());
        received = { status: answer.statusCode, headers: answer.headers, body };
        return new Response(NULL_BODY_STATUSES.has(answer.statusCode) ? null : body, {
          status: answer.statusCode,
          headers: toHeaders(answer.headers),
        });
      };
      try {
        const { data } = await send(client, { headers, fetch: transport });
        if (!received) throw new Error('the call sent nothing'); // a SendCall that bypassed `init.fetch`
        return { kind: 'answer', ...received, data };
      } catch (error) {
        // The API answered, but a 2xx body that is not JSON: an answer with no data.
        if (received) return { kind: 'answer', ...received, data: undefined };
        return { kind: 'noAnswer', failure: upstreamFailureOf(abort.signal), error };
      } finally {
        abort.end();
      }
    },
    close: () => dispatcher.close(),
  };
}

/** The answer's JSON body whatever its status, or undefined when it is not JSON. */
function jsonOf(answer: ApiAnswer): unknown {
  try {
    return JSON.parse(answer.body.toString('utf8'));
  } catch {
    return undefined;
  }
}

/** True for an answer whose body is a problem+json document (RFC 9457). */
export function isProblemAnswer(answer: ApiAnswer): boolean {
  const type = String(answer.headers['content-type'] ?? '');
  return type.startsWith('application/problem+json') && typeof jsonOf(answer) === 'object';
}
