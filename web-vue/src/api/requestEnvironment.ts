/**
 * Everything the request layer takes from the outside world, in one object, so tests
 * replace the network, the clock, the waits and the dice without fake timers.
 */

/** Cancels a timer set by {@link RequestEnvironment.setTimer}. */
type CancelTimer = () => void;

/** The request layer's view of the world. */
export interface RequestEnvironment {
  /** Sends one request (the browser's fetch). */
  fetch: (request: Request) => Promise<Response>;
  /** Milliseconds on a monotonic clock. */
  now: () => number;
  /** Resolves after `ms`, or early once `signal` aborts. */
  sleep: (ms: number, signal?: AbortSignal) => Promise<void>;
  /** A number in [0, 1): the jitter's dice. */
  random: () => number;
  /** Runs `run` after `ms` (the abort timer). */
  setTimer: (run: () => void, ms: number) => CancelTimer;
}

/** The real world: window.fetch, performance.now, setTimeout, Math.random. */
export const browserEnvironment: RequestEnvironment = {
  fetch: (request) => globalThis.fetch(request),
  now: () => globalThis.performance.now(),
  sleep: (ms, signal) =>
    new Promise<void>((resolve) => {
      if (signal?.aborted) return resolve();
      const timer = setTimeout(done, ms);
      function done() {
        clearTimeout(timer);
        signal?.removeEventListener('abort', done);
        resolve();
      }
      signal?.addEventListener('abort', done, { once: true });
    }),
  random: () => Math.random(),
  setTimer: (run, ms) => {
    const timer = setTimeout(run, ms);
    return () => clearTimeout(timer);
  },
};
