/**
 * Which headers cross the proxy. Towards the API: only what the API reads (the body's
 * type and length, Accept, Idempotency-Key), the request's trace (X-Trace-Id and a
 * `traceparent` of the BFF's own span, never the visitor's header as it came) and the
 * session's bearer token; never the visitor's cookies, CSRF token or anything else. Towards the
 * visitor: everything the API said (status, Retry-After, X-Trace-Id, ...) except
 * hop-by-hop headers, cookies and its security headers; every answer is `no-store`.
 */
import type { IncomingHttpHeaders } from 'node:http';
import type { UpstreamTrace } from '../http/problem.ts';

const forwardedToApi = ['accept', 'content-type', 'content-length', 'idempotency-key'] as const;

/**
 * Not passed on: RFC 9110 §7.6.1 connection-specific headers, cookies (the API has no
 * business setting them), and the API's security headers: the BFF's own (securityHeaders.ts)
 * stand on everything it serves, so the API's must not replace them (adr/0012).
 */
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
  'content-security-policy',
  'content-security-policy-report-only',
  'cross-origin-embedder-policy',
  'cross-origin-opener-policy',
  'cross-origin-resource-policy',
  'origin-agent-cluster',
  'referrer-policy',
  'strict-transport-security',
  'x-content-type-options',
  'x-dns-prefetch-control',
  'x-download-options',
  'x-frame-options',
  'x-permitted-cross-domain-policies',
  'x-xss-protection',
  'cache-control',
]);

/** The headers of the request to the API (the visitor's address as X-Forwarded-For, the BFF's own word for it). */
export function headersTowardsApi(
  visitor: IncomingHttpHeaders,
  trace: UpstreamTrace,
  accessToken: string,
  visitorAddress?: string,
): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const name of forwardedToApi) {
    const value = visitor[name];
    if (typeof value === 'string') headers[name] = value;
  }
  headers['x-trace-id'] = trace.traceId;
  if (trace.traceparent) headers.traceparent = trace.traceparent;
  headers.authorization = `Bearer ${accessToken}`;
  if (visitorAddress) headers['x-forwarded-for'] = visitorAddress;
  return headers;
}

/**
 * The API's answer headers that reach the visitor, and `Cache-Control: no-store`: a
 * bank's balances, movements and profile are never kept by a browser or a proxy cache.
 */
export function headersTowardsVisitor(
  api: Record<string, string | string[] | undefined>,
): Array<[string, string | string[]]> {
  const kept: Array<[string, string | string[]]> = [];
  for (const [name, value] of Object.entries(api)) {
    if (value === undefined || notForwardedToVisitor.has(name.toLowerCase())) continue;
    kept.push([name, value]);
  }
  kept.push(['cache-control', 'no-store']);
  return kept;
}

/** True when the visitor's request carries a body to stream. */
export function hasRequestBody(method: string, visitor: IncomingHttpHeaders): boolean {
  if (method === 'GET' || method === 'HEAD') return false;
  if (visitor['transfer-encoding'] !== undefined) return true;
  const length = Number(visitor['content-length'] ?? 0);
  return Number.isFinite(length) && length > 0;
}
