/**
 * Why a call to the API produced no answer, as one of three values: it did not answer in
 * time (`timeout`), it could not be reached or dropped the connection (`unreachable`:
 * refused, reset, closed, DNS), or the visitor hung up and we stopped asking (`hungUp`).
 * The first two are the BFF's own 503; the last is a 499 with no body.
 */

/** The abort reason when a budget runs out. */
export class UpstreamTimeout extends Error {
  override readonly name = 'UpstreamTimeout';
  readonly timeoutMs: number;
  constructor(timeoutMs: number) {
    super(`the API did not answer within ${timeoutMs} ms`);
    this.timeoutMs = timeoutMs;
  }
}

/** The abort reason when the visitor hangs up. */
export class VisitorHungUp extends Error {
  override readonly name = 'VisitorHungUp';
  constructor() {
    super('the visitor hung up');
  }
}

/**
 * The log line of a hang-up while the API works: the visitor left, and the API may still
 * finish (a money send whose COMMIT started lands), so a trace of a payment made twice
 * never reads it as "aborted".
 */
export const VISITOR_LEFT = 'the visitor left; the API may still finish';

/** Why there is no answer. */
export type UpstreamFailure = 'timeout' | 'unreachable' | 'hungUp';

/** One call's abort signal, and `end()` to stop its budget's timer once the call is over. */
export interface UpstreamAbort {
  readonly signal: AbortSignal;
  end(): void;
}

/**
 * The abort of one call to the API: it fires when `timeoutMs` runs out (reason:
 * `UpstreamTimeout`) or, when `visitor` is given, when the visitor hangs up (reason:
 * `VisitorHungUp`), whichever comes first (AbortSignal.any).
 *
 * The budget is a timer and a controller, not AbortSignal.timeout: on Node 20 a timeout
 * signal that only AbortSignal.any refers to can be garbage-collected and then never fires
 * (nodejs/node#57736; a hung API would be waited for forever: upstreamFailure.test.ts), and
 * a timer can be stopped when the call ends, so no 55 s timer outlives each request.
 */
export function upstreamAbort(timeoutMs: number, visitor?: AbortSignal): UpstreamAbort {
  const budget = new AbortController();
  const timer = setTimeout(() => budget.abort(new UpstreamTimeout(timeoutMs)), timeoutMs);
  return {
    signal: visitor ? AbortSignal.any([budget.signal, visitor]) : budget.signal,
    end: () => clearTimeout(timer),
  };
}

/** Why a call whose signal is `signal` (from `upstreamAbort`) failed: its abort reason, else the network. */
export function upstreamFailureOf(signal: AbortSignal): UpstreamFailure {
  const reason: unknown = signal.aborted ? signal.reason : undefined;
  if (reason instanceof VisitorHungUp) return 'hungUp';
  if (reason instanceof UpstreamTimeout) return 'timeout';
  return 'unreachable';
}

/** A short description of a network error for the log (code and message, no stack). */
export function describeNetworkError(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  const code = (error as { code?: string }).code ?? (error.cause as { code?: string } | undefined)?.code;
  return code ? `${code}: ${error.message}` : error.message;
}
