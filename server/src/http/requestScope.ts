/**
 * Gives each request its context (traceId, logger, AbortSignal) in AsyncLocalStorage.
 * The signal fires when the client hangs up; the deadline (issue 4) fires it too.
 */
import type { RequestHandler } from 'express';
import { runWithContext } from './requestContext.ts';

/** Opens the request's context for everything after it in the chain. */
export function requestScope(): RequestHandler {
  return (req, res, next) => {
    const controller = new AbortController();
    res.on('close', () => {
      if (!res.writableFinished) controller.abort(new Error('client closed the request'));
    });
    runWithContext({ traceId: String(req.id), log: req.log, signal: controller.signal }, next);
  };
}
