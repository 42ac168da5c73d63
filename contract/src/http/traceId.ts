/**
 * Every request's traceId, the same rule at the API and the BFF (adr/0018): the W3C trace
 * id of the caller's `traceparent` when it is valid, else the caller's `X-Trace-Id` when it
 * is a W3C trace id (32 lowercase hex digits), else a new one; echoed in the answer as
 * `X-Trace-Id`. The request gets its own span id, which the BFF sends to the API as the
 * parent in a `traceparent`, so one trace id finds a request in both logs (and, with
 * OpenTelemetry on, one trace holds both spans).
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { incomingTrace, startRequestSpan, type RequestSpan } from './traceContext.ts';

const spans = new WeakMap<ServerResponse, RequestSpan>();

/**
 * pino-http's options for it: each request's id is its traceId, logged as `traceId`, and
 * every line the request logs (req.log) carries it.
 */
export const traceIdLogOptions = {
  genReqId: assignTraceId,
  customAttributeKeys: { reqId: 'traceId' },
  quietReqLogger: true,
} as const;

/** The span of the request this answer belongs to (set by the request log, first in the chain). */
export function requestSpanOf(res: ServerResponse): RequestSpan | undefined {
  return spans.get(res);
}

/** The path without its query (ids in a query never reach a span attribute). */
function pathOf(req: IncomingMessage): string {
  const url = (req as IncomingMessage & { originalUrl?: string }).originalUrl ?? req.url ?? '';
  const end = url.indexOf('?');
  return end === -1 ? url : url.slice(0, end);
}

/**
 * Starts the request's span; its trace id is the request's traceId, also set as the answer's
 * X-Trace-Id. pino-http's `genReqId` at the BFF; the API's own request log calls it directly.
 */
export function assignTraceId(req: IncomingMessage, res: ServerResponse): string {
  const span = startRequestSpan({
    name: req.method ?? 'HTTP',
    trace: incomingTrace(req.headers),
    attributes: { 'http.request.method': req.method ?? '', 'url.path': pathOf(req) },
  });
  spans.set(res, span);
  res.once('close', () => span.end(res.writableFinished ? res.statusCode : 499));
  res.setHeader('X-Trace-Id', span.traceId);
  return span.traceId;
}
