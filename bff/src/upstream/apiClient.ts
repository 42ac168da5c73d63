/**
 * The BFF's own calls to the API (sign-up, sign-in, profile, refresh, revoke, readiness):
 * each with its own budget, never retried, with the request's traceId, and its result a
 * value: the API's answer (any status, body read whole: these bodies are small), or why
 * there was none. The streaming proxy of `/api/*` shares the same connection pool.
 */
import { Agent, request, type Dispatcher } from 'undici';
import { UpstreamTimeout, upstreamFailureOf, type UpstreamFailure } from './upstreamFailure.ts';

/** The API answered. */
export interface ApiAnswer {
  kind: 'answer';
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: Buffer;
}

/** The API did not answer. */
export interface ApiNoAnswer {
  kind: 'noAnswer';
  failure: UpstreamFailure;
  error: unknown;
}

/** One call. */
interface ApiCall {
  method: 'GET' | 'POST';
  path: string;
  traceId: string;
  timeoutMs: number;
  body?: unknown;
  bearer?: string;
  /** The visitor's address (X-Forwarded-For): the API counts failed sign-ins by it. */
  visitorAddress?: string;
  /** Also ends the call (the visitor hung up); omit for calls that must finish regardless. */
  signal?: AbortSignal;
}

/** The API client of one BFF process. */
export interface ApiClient {
  readonly apiUrl: string;
  readonly dispatcher: Dispatcher;
  call(call: ApiCall): Promise<ApiAnswer | ApiNoAnswer>;
  close(): Promise<void>;
}

/** A keep-alive pool to the API; undici's own timeouts are off, since every call carries its budget. */
export function createApiClient(apiUrl: string): ApiClient {
  const dispatcher = new Agent({ headersTimeout: 0, bodyTimeout: 0, connectTimeout: 10_000 });
  return {
    apiUrl,
    dispatcher,
    async call({ method, path, traceId, timeoutMs, body, bearer, visitorAddress, signal: visitorSignal }) {
      const controller = new AbortController();
      const timer = setTimeout(() => controller.abort(new UpstreamTimeout(timeoutMs)), timeoutMs);
      const onVisitorGone = () => controller.abort(visitorSignal?.reason);
      visitorSignal?.addEventListener('abort', onVisitorGone, { once: true });
      const headers: Record<string, string> = { accept: 'application/json', 'x-trace-id': traceId };
      if (body !== undefined) headers['content-type'] = 'application/json';
      if (bearer) headers.authorization = `Bearer ${bearer}`;
      if (visitorAddress) headers['x-forwarded-for'] = visitorAddress;
      try {
        const answer = await request(`${apiUrl}${path}`, {
          method,
          headers,
          body: body === undefined ? undefined : JSON.stringify(body),
          signal: controller.signal,
          dispatcher,
        });
        const bytes = Buffer.from(await answer.body.arrayBuffer());
        return { kind: 'answer', status: answer.statusCode, headers: answer.headers, body: bytes };
      } catch (error) {
        return { kind: 'noAnswer', failure: upstreamFailureOf(error, controller.signal), error };
      } finally {
        clearTimeout(timer);
        visitorSignal?.removeEventListener('abort', onVisitorGone);
      }
    },
    close: () => dispatcher.close(),
  };
}

/** The answer's JSON body, or undefined when it is not JSON. */
export function jsonOf(answer: ApiAnswer): unknown {
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
