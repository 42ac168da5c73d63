/**
 * Why a call to the API produced no answer, as one of three values: it did not answer in
 * time (`timeout`), it could not be reached or dropped the connection (`unreachable`:
 * refused, reset, closed, DNS), or the visitor hung up and we stopped asking (`hungUp`).
 * The first two are the BFF's own 503; the last is a 499 with no body.
 */

/**
 * How a run-out budget is described in the log (the signal's own reason is the
 * platform's TimeoutError, whose message does not say which budget ran out).
 */
export class UpstreamTimeout extends Error {
  override readonly name = 'UpstreamTimeout';
  constructor(readonly timeoutMs: number) {
    super(`the API did not answer within ${timeoutMs} ms`);
  }
}

/** The abort reason when the visitor hangs up. */
export class VisitorHungUp extends Error {
  override readonly name = 'VisitorHungUp';
  constructor() {
    super('the visitor hung up');
  }
}

/** Why there is no answer. */
export type UpstreamFailure = 'timeout' | 'unreachable' | 'hungUp';

/**
 * The AbortSignal of one call to the API: it aborts when `timeoutMs` runs out (reason: a
 * `TimeoutError` DOMException) or, when `visitor` is given, when the visitor hangs up
 * (reason: `VisitorHungUp`), whichever comes first.
 */
export function upstreamSignal(timeoutMs: number, visitor?: AbortSignal): AbortSignal {
  const budget = AbortSignal.timeout(timeoutMs);
  return visitor ? AbortSignal.any([budget, visitor]) : budget;
}

/** Why a call whose AbortSignal is `signal` (from `upstreamSignal`) failed: its abort reason, else the network. */
export function upstreamFailureOf(signal: AbortSignal): UpstreamFailure {
  const reason: unknown = signal.aborted ? signal.reason : undefined;
  if (reason instanceof VisitorHungUp) return 'hungUp';
  if (reason instanceof DOMException && reason.name === 'TimeoutError') return 'timeout';
  return 'unreachable';
}

/** A short description of a network error for the log (code and message, no stack). */
export function describeNetworkError(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  const code = (error as { code?: string }).code ?? (error.cause as { code?: string } | undefined)?.code;
  return code ? `${code}: ${error.message}` : error.message;
}
