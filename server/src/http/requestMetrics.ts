/**
 * Times every request for `tidewater_http_request_duration_seconds{operation,status}` and
 * counts each 503 by its cause (metrics.ts, adr/0017). The operation is the operationId
 * the router matched (`unknown` for a path the spec does not have); a client that hung up
 * is status 499, as the log says; the cause is the one the problem handler found. A 503
 * for lack of database resources also tells `/api/ready` (domain/writeRefusals.ts).
 */
import type { RequestHandler, Response } from 'express';
import { countUnavailable, observeRequest, type UnavailableCause } from '../metrics.ts';
import { noteWriteRefusal } from '../domain/writeRefusals.ts';

/** Where the router and the problem handler leave what the metrics need. */
interface MetricsLocals {
  operationId?: string;
  unavailableCause?: UnavailableCause;
}

/** The router names the request's operation (one line in operationRouter.ts). */
export function noteOperation(res: Response, operationId: string): void {
  (res.locals as MetricsLocals).operationId = operationId;
}

/** The problem handler names why it answers 503. */
export function noteUnavailableAnswer(res: Response, cause: UnavailableCause): void {
  (res.locals as MetricsLocals).unavailableCause = cause;
}

/** The middleware: first in the chain, so every answer is timed. */
export function requestMetrics(): RequestHandler {
  return (_req, res, next) => {
    const startedAt = performance.now();
    res.once('close', () => {
      const locals = res.locals as MetricsLocals;
      const status = res.writableFinished ? res.statusCode : 499;
      observeRequest(locals.operationId ?? 'unknown', status, (performance.now() - startedAt) / 1000);
      if (status === 503) countUnavailable(locals.unavailableCause ?? 'other');
      // A full disk answers SELECT 1 as if all were well: /api/ready hears of it here.
      if (status === 503 && locals.unavailableCause === 'insufficient_resources') noteWriteRefusal();
    });
    next();
  };
}
