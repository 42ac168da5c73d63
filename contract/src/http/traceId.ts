/**
 * Every request's traceId, the same rule at the API and the BFF: the caller's
 * `X-Trace-Id` when it is short and plain, else a new one; echoed in the answer. The BFF
 * forwards its id to the API, so one id finds a request in both logs.
 */
import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';

/** A traceId a caller may propose: short and plain, else we make our own. */
export const traceIdPattern = /^[A-Za-z0-9._-]{8,64}$/;

/**
 * pino-http's options for it: each request's id is its traceId, logged as `traceId`, and
 * every line the request logs (req.log) carries it.
 */
export const traceIdLogOptions = {
  genReqId: assignTraceId,
  customAttributeKeys: { reqId: 'traceId' },
  quietReqLogger: true,
} as const;

/** pino-http's `genReqId`: the request's traceId, also set as the answer's X-Trace-Id. */
function assignTraceId(req: IncomingMessage, res: ServerResponse): string {
  const proposed = req.headers['x-trace-id'];
  const traceId = typeof proposed === 'string' && traceIdPattern.test(proposed) ? proposed : randomUUID();
  res.setHeader('X-Trace-Id', traceId);
  return traceId;
}
