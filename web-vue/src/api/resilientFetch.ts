/**
 * The one place requests are sent, wrapped around `fetch` (adr/0009-spa-honest-outages.md, "Requests"):
 * - every attempt is aborted by the SPA at SPA_ABORT_MS (65 s by default) and then throws RequestTimedOut;
 * - a READ (GET/HEAD) is retried once, after the wait its first answer named plus up to
 *   20 % jitter, only if the retry starts within READ_BUDGET_MS (120 s by default) of the first
 *   attempt; the retry's own abort is cut to what is left of that budget;
 * - a read is never retried after its own abort, which would only double the wait;
 * - a WRITE is never retried: sent again it could spend twice;
 * - the caller's AbortSignal (the visitor's Stop) ends the read at once: RequestStopped;
 * - a connection that fails before any answer throws ConnectionFailed;
 * - every attempt carries a W3C `traceparent`: one trace id per request, a new span id per attempt (traceparent.ts);
 * - the instant a read's first attempt earns its retry, the watcher hears why (an answer that
 *   named an outage, or no connection), so a page can name the outage then, not only once the
 *   retry has failed too (adr/0074).
 * The answer itself (any status) is returned untouched: deciding what it means is toApiProblem's job.
 */
import { readRetryWaitMs, withJitter, type AttemptOutcome } from './readRetryWait.ts';
import { ConnectionFailed, RequestStopped, RequestTimedOut } from './requestErrors.ts';
import { browserEnvironment, type RequestEnvironment } from './requestEnvironment.ts';
import { MAX_JITTER_FRACTION, READ_BUDGET_MS, SPA_ABORT_MS } from './timings.ts';
import { newTraceId, traceparentFor } from './traceparent.ts';

/** Per-request limits; each defaults to the table in timings.ts. */
export interface RequestLimits {
  /** Abort one attempt after this (default SPA_ABORT_MS). */
  abortAfterMs?: number;
  /** A read's retry must start within this of its first attempt (default READ_BUDGET_MS). */
  readBudgetMs?: number;
  /** False: a read is sent once, like a write (the look-up by key: the visitor's "Check again" is its retry). */
  retryReads?: boolean;
}

/** Why a read waits for its one retry: the bank (or a gateway) answered that it is unavailable, or no connection was made. */
export type ReadRetryCause = 'unavailable' | 'unreachable';

/** Who hears about a read waiting for its retry. */
export interface ReadRetryWatcher {
  /** A read's first attempt failed with `cause` and its one retry is coming. */
  readRetrying?: (cause: ReadRetryCause) => void;
}

/** A fetch with the SPA's abort and read-retry rules. */
export type ResilientFetch = (request: Request, limits?: RequestLimits) => Promise<Response>;

const READ_METHODS = new Set(['GET', 'HEAD']);

/** Creates the request layer's fetch over `env` (the browser by default). */
export function createResilientFetch(env: RequestEnvironment = browserEnvironment, defaults: RequestLimits = {}, watcher: ReadRetryWatcher = {}): ResilientFetch {
  // Written out by hand, not AbortSignal.timeout/any: the abort's clock is the
  // environment's (`env.setTimer`), which tests script (fakeRequestEnvironment.ts) and
  // AbortSignal.timeout would bypass; and AbortSignal.any (Chrome 116, Firefox 124,
  // Safari 17.4) is newer than the browsers the build targets (Vite's default:
  // Chrome 111, Firefox 114, Safari 16.4).
  async function attempt(request: Request, abortAfterMs: number, callerSignal: AbortSignal, traceId: string): Promise<AttemptOutcome> {
    if (callerSignal.aborted) return { error: new RequestStopped() };
    const controller = new AbortController();
    let timedOut = false;
    const cancelTimer = env.setTimer(() => {
      timedOut = true;
      controller.abort();
    }, abortAfterMs);
    const onStop = () => controller.abort();
    callerSignal.addEventListener('abort', onStop, { once: true });
    try {
      const headers = new Headers(request.headers);
      headers.set('traceparent', traceparentFor(traceId));
      const response = await env.fetch(new Request(request, { signal: controller.signal, headers }));
      return { response };
    } catch (cause) {
      if (timedOut) return { error: new RequestTimedOut(abortAfterMs) };
      if (callerSignal.aborted) return { error: new RequestStopped() };
      return { error: new ConnectionFailed(cause) };
    } finally {
      cancelTimer();
      callerSignal.removeEventListener('abort', onStop);
    }
  }

  function settle(outcome: AttemptOutcome): Response {
    if (outcome.error) throw outcome.error;
    return outcome.response;
  }

  return async function resilientFetch(request, limits = {}) {
    const abortAfterMs = limits.abortAfterMs ?? defaults.abortAfterMs ?? SPA_ABORT_MS;
    const readBudgetMs = limits.readBudgetMs ?? defaults.readBudgetMs ?? READ_BUDGET_MS;
    const retryReads = limits.retryReads ?? defaults.retryReads ?? true;
    const callerSignal = request.signal;
    const isRead = READ_METHODS.has(request.method.toUpperCase());
    const startedAt = env.now();
    const traceId = newTraceId();

    if (!isRead || !retryReads) return settle(await attempt(request, abortAfterMs, callerSignal, traceId));

    const first = await attempt(request.clone(), Math.min(abortAfterMs, readBudgetMs), callerSignal, traceId);
    const waitMs = await readRetryWaitMs(first);
    if (waitMs === null) return settle(first);
    const jitteredMs = withJitter(waitMs, env.random(), MAX_JITTER_FRACTION);
    if (env.now() - startedAt + jitteredMs >= readBudgetMs) return settle(first);
    watcher.readRetrying?.(first.error ? 'unreachable' : 'unavailable');

    await env.sleep(jitteredMs, callerSignal);
    if (callerSignal.aborted) throw new RequestStopped();
    const leftMs = readBudgetMs - (env.now() - startedAt);
    if (leftMs <= 0) return settle(first);
    return settle(await attempt(request, Math.min(abortAfterMs, leftMs), callerSignal, traceId));
  };
}
