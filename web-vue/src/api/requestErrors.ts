/**
 * The three ways a request can end without an HTTP answer. The request layer throws
 * these (never a bare DOMException or TypeError) so `toApiProblem` can tell them apart.
 */

const brand = Symbol.for('tidewater.requestError');

/** Base of the request layer's own errors. */
abstract class RequestError extends Error {
  readonly [brand] = true;
}

/** The SPA's own abort fired (65 s, or the read's remaining budget). Worded as the outage; never retried. */
export class RequestTimedOut extends RequestError {
  override readonly name = 'RequestTimedOut';
  readonly afterMs: number;
  constructor(afterMs: number) {
    super(`no answer within ${afterMs} ms`);
    this.afterMs = afterMs;
  }
}

/** The visitor stopped a read (the caller's AbortSignal). */
export class RequestStopped extends RequestError {
  override readonly name = 'RequestStopped';
  constructor() {
    super('stopped by the visitor');
  }
}

/** The connection failed before any answer: offline, refused, reset, DNS. */
export class ConnectionFailed extends RequestError {
  override readonly name = 'ConnectionFailed';
  override readonly cause: unknown;
  constructor(cause: unknown) {
    super('the connection failed before any answer');
    this.cause = cause;
  }
}
