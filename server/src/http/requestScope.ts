/**
 * Gives each request its context (traceId, logger, deadline and its AbortSignal) in
 * AsyncLocalStorage. The operation router arms the deadline, or exempts the operation;
 * a client that hangs up fires the signal (unless a commit or a result disarmed it).
 */
import type { RequestHandler } from 'express';
import { runWithContext, type RequestContext } from '../request/requestContext.ts';
import { RequestDeadline } from '../request/requestDeadline.ts';

/** Opens the request's context for everything after it in the chain. */
export function requestScope(): RequestHandler {
  return (req, res, next) => {
    const deadline = new RequestDeadline();
    res.on('close', () => {
      if (!res.writableFinished) deadline.onClientGone();
      deadline.dispose();
    });
    const context: RequestContext = {
      traceId: req.id,
      // The request log makes the request's logger on its first use (adr/0028): not here.
      get log() {
        return req.log;
      },
      signal: deadline.signal,
      deadline,
    };
    // The error handler reads it from here: it may run outside the request's async context.
    res.locals.context = context;
    runWithContext(context, next);
  };
}
