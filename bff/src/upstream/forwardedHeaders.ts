/**
 * Which headers cross the proxy. Towards the API: only what the API reads (the body's
 * type and length, Accept, Idempotency-Key), the request's traceId and the session's
 * bearer token; never the visitor's cookies, CSRF token or anything else. Towards the
 * visitor: everything the API said (status, Retry-After, Cache-Control, X-Trace-Id, ...)
 * except hop-by-hop headers and cookies.
 */
import type { IncomingHttpHeaders } from 'node:http';

const forwardedToApi = ['accept', 'content-type', 'content-length', 'idempotency-key'] as const;

/** RFC 9110 §7.6.1 connection-specific headers, plus cookies, which the API has no business setting. */
const notForwardedToVisitor = new Set([
  'connection',
  'keep-alive',
  'proxy-authenticate',
  'proxy-authorization',
  'te',
  'trailer',
  'transfer-encoding',
  'upgrade',
  'set-cookie',
]);

/** The headers of the request to the API. */
export function headersTowardsApi(
  visitor: IncomingHttpHeaders,
  traceId: string,
  accessToken: string,
): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const name of forwardedToApi) {
    const value = visitor[name];
    if (typeof value === 'string') headers[name] = value;
  }
  headers['x-trace-id'] = traceId;
  headers.authorization = `Bearer ${accessToken}`;
  return headers;
}

/** The API's answer headers that reach the visitor. */
export function headersTowardsVisitor(
  api: Record<string, string | string[] | undefined>,
): Array<[string, string | string[]]> {
  const kept: Array<[string, string | string[]]> = [];
  for (const [name, value] of Object.entries(api)) {
    if (value === undefined || notForwardedToVisitor.has(name.toLowerCase())) continue;
    kept.push([name, value]);
  }
  return kept;
}

/** True when the visitor's request carries a body to stream. */
export function hasRequestBody(method: string, visitor: IncomingHttpHeaders): boolean {
  if (method === 'GET' || method === 'HEAD') return false;
  if (visitor['transfer-encoding'] !== undefined) return true;
  const length = Number(visitor['content-length'] ?? 0);
  return Number.isFinite(length) && length > 0;
}
