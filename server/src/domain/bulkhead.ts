/**
 * A line for something only a few may do at once: at most `concurrency` hold a turn,
 * up to `queue` more wait for one in the order they came (each leaving the line when its
 * request's signal fires), and anyone beyond that gets `whenFull()`'s error at once.
 * The hashing turns (hashingBulkhead.ts) and the account turns (money/accountBulkhead.ts) are two.
 */

/** Gives back a turn (safe to call twice). */
export type ReleaseTurn = () => void;

/** A turn did not come within the `maxWaitMs` its taker gave. */
export class NoTurnInTime extends Error {
  readonly waitedMs: number;
  constructor(waitedMs: number) {
    super(`no turn came within ${waitedMs} ms`);
    this.waitedMs = waitedMs;
    this.name = 'NoTurnInTime';
  }
}

/** One line. */
export interface Bulkhead {
  /**
   * Waits for a turn; throws `whenFull()` when the line is full, the signal's reason when it
   * fires first, or NoTurnInTime when `maxWaitMs` passes first.
   */
  take(signal?: AbortSignal, maxWaitMs?: number): Promise<ReleaseTurn>;
  /** For tests and metrics. */
  state(): { running: number; waiting: number };
}

/** A line of `concurrency` turns with room for `queue` waiting (Infinity: the signal alone bounds the wait). */
export function bulkhead(concurrency: number, queue: number, whenFull: () => Error): Bulkhead {
  let running = 0;
  const waiting: Array<() => void> = [];

  return {
    async take(signal, maxWaitMs) {
      signal?.throwIfAborted();
      if (running < concurrency) running += 1;
      else {
        if (waiting.length >= queue) throw whenFull();
        // A turn given back passes straight to the first in line, so `running` stays as it is.
        await new Promise<void>((resolve, reject) => {
          const go = () => {
            signal?.removeEventListener('abort', leave);
            clearTimeout(timer);
            resolve();
          };
          const out = (reason: unknown) => {
            waiting.splice(waiting.indexOf(go), 1);
            signal?.removeEventListener('abort', leave);
            clearTimeout(timer);
            reject(reason);
          };
          const leave = () => out(signal!.reason);
          const timer = maxWaitMs === undefined ? undefined : setTimeout(() => out(new NoTurnInTime(maxWaitMs)), maxWaitMs);
          waiting.push(go);
          signal?.addEventListener('abort', leave, { once: true });
        });
      }
      let released = false;
      return () => {
        if (released) return;
        released = true;
        const next = waiting.shift();
        if (next) next();
        else running -= 1;
      };
    },
    state() {
      return { running, waiting: waiting.length };
    },
  };
}
