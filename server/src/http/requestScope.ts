/**
 * Gives each request its context (traceId, logger, deadline and its AbortSignal) in
 * AsyncLocalStorage. The operation router arms the deadline, or exempts the operation;
 * a client that hangs up fires the signal (unless a commit or a result disarmed it).
 */
import type { RequestHandler } from 'express';
import type { Logger } from 'pino';
import { runWithContext, type RequestContext } from '../request/requestContext.ts';
import { RequestDeadline } from '../request/requestDeadline.ts';
import type { RequestLogger } from './requestLog.ts';

/**
 * One request's context. It must not lead back to the request: Node makes a keep-alive
 * connection's idle timer as the answer finishes, in the request's async scope, and that
 * timer holds the scope's store (with this context) until the connection's next request
 * or its keep-alive timeout. A context that reached the request (a `log` getter closing
 * over `req` did) kept the request's whole object graph, its body and its answer alive on
 * every idle connection (adr/0039). So a class, holding only its own parts: the logger's
 * holder and the deadline.
 */
class ScopedContext implements RequestContext {
  readonly traceId: string;
  readonly signal: AbortSignal;
  userId?: string;
  hasWrites?: boolean;
  readFromPrimaryUntil?: number;
  commits?: RequestContext['commits'];
  outageExtras?: RequestContext['outageExtras'];
  unavailableCause?: string;
  rateLimits?: RequestContext['rateLimits'];

  /** A private field: a copy of the context (sideWrites.ts) spreads the own fields, and this one is not the copy's. */
  readonly #logger: RequestLogger;

  readonly deadline: RequestDeadline;

  constructor(logger: RequestLogger, deadline: RequestDeadline) {
    this.#logger = logger;
    this.deadline = deadline;
    this.traceId = logger.traceId;
    this.signal = deadline.signal;
  }

  // The request log makes the request's logger on its first use (adr/0028): not here.
  get log(): Logger {
    return this.#logger.log;
  }
}

/** Opens the request's context for everything after it in the chain. */
export function requestScope(): RequestHandler {
  return (req, res, next) => {
    const deadline = new RequestDeadline();
    const context = new ScopedContext(req.logger, deadline);
    res.on('close', () => {
      if (!res.writableFinished) deadline.onClientGone();
      deadline.dispose();
    });
    // The error handler reads it from here: it may run outside the request's async context.
    res.locals.context = context;
    runWithContext(context, next);
  };
}
