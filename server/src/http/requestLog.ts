/**
 * The API's request log (adr/0028): each request's traceId (adr/0018's rule, shared with
 * the BFF: `assignTraceId`), a logger that names it, and one line when the answer is done.
 *
 * It stands where pino-http stood, with the same line (`req` {method, url}, `res`
 * {statusCode}, `responseTime`, the message), and spends nothing on what no level
 * will write: the request's child logger is made on its first use (most requests never
 * log a line of their own), and the closing line is built only when its level is on.
 * pino-http made two child loggers and serialised the request on every request, whatever
 * the level: about 4 % of the API's CPU per deposit (bench/profile, 12-03).
 *
 * A client that hung up is one line, whenever it left (mid-work, after a COMMIT started,
 * on an operation exempt from hang-ups): 499, at info. Any other 5xx is at error. Method
 * and URL only: headers carry bearer tokens, which never reach a log line.
 */
import type { RequestHandler } from 'express';
import type { Logger } from 'pino';
import { assignTraceId } from '@tidewater/contract/http';

declare module 'node:http' {
  interface IncomingMessage {
    /** The request's traceId (set by the request log, first in the chain). */
    id: string;
    /** A logger whose every line carries the request's traceId. */
    log: Logger;
    /** The same logger through an object that does not hold the request (the request's context keeps this one). */
    logger: RequestLogger;
  }
}

/**
 * A request's logger, made on its first use. An object of its own, not a closure of the
 * middleware: the request's context holds it, and Node's keep-alive timer of the
 * connection holds that context until the next request comes (requestScope.ts), so
 * nothing it holds may lead back to the request.
 */
export class RequestLogger {
  private made: Logger | undefined;
  private readonly parent: Logger;
  readonly traceId: string;

  constructor(parent: Logger, traceId: string) {
    this.parent = parent;
    this.traceId = traceId;
  }

  get log(): Logger {
    return (this.made ??= this.parent.child({ traceId: this.traceId }));
  }
}

export const hangUpMessage = 'client closed the request before its answer';

/** The request-log middleware, first in the chain after the request's timer. */
export function requestLog(logger: Logger): RequestHandler {
  return (req, res, next) => {
    const started = Date.now();
    const traceId = assignTraceId(req, res);
    const requestLogger = new RequestLogger(logger, traceId);
    req.id = traceId;
    req.logger = requestLogger;
    Object.defineProperty(req, 'log', { get: () => requestLogger.log, configurable: true });
    // A response closes after it finished, or without finishing when its client hung up.
    res.once('close', () => {
      const hungUp = !res.writableFinished;
      const level = !hungUp && res.statusCode >= 500 ? 'error' : 'info';
      if (!logger.isLevelEnabled(level)) return;
      req.log[level](
        { req: { method: req.method, url: req.originalUrl }, res: { statusCode: hungUp ? 499 : res.statusCode }, responseTime: Date.now() - started },
        hungUp ? hangUpMessage : level === 'error' ? 'request errored' : 'request completed',
      );
    });
    next();
  };
}
