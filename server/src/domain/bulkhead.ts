/**
 * A bulkhead for something only a few may do at once: at most `concurrency` permits are
 * held, up to `queue` more callers wait for one in the order they came (each leaving the
 * queue when its request's signal fires), and anyone beyond that gets `whenFull()`'s error
 * at once. The hashing bulkhead (identity/hashingBulkhead.ts) and the account bulkhead
 * (money/accountBulkhead.ts) are two.
 */

/** Gives back a permit (safe to call twice). */
export type ReleasePermit = () => void;

/** No permit came within the `maxWaitMs` its caller gave. */
export class PermitWaitTimeout extends Error {
  readonly waitedMs: number;
  constructor(waitedMs: number) {
    super(`no permit came within ${waitedMs} ms`);
    this.waitedMs = waitedMs;
    this.name = 'PermitWaitTimeout';
  }
}

/** One bulkhead. */
export interface Bulkhead {
  /**
   * Waits for a permit; throws `whenFull()` when the queue is full, the signal's reason when
   * it fires first, or PermitWaitTimeout when `maxWaitMs` passes first.
   */
  acquire(signal?: AbortSignal, maxWaitMs?: number): Promise<ReleasePermit>;
  /** For tests and metrics: permits held, callers queued. */
  state(): { running: number; waiting: number };
}

/** A bulkhead of `concurrency` permits with a queue of `queue` (Infinity: the signal alone bounds the wait). */
export function bulkhead(concurrency: number, queue: number, whenFull: () => Error): Bulkhead {
  let running = 0;
  const waiting: Array<() => void> = [];

  return {
    async acquire(signal, maxWaitMs) {
      signal?.throwIfAborted();
      if (running < concurrency) running += 1;
      else {
        if (waiting.length >= queue) throw whenFull();
        // A permit given back passes straight to the first in the queue, so `running` stays as it is.
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
          const timer = maxWaitMs === undefined ? undefined : setTimeout(() => out(new PermitWaitTimeout(maxWaitMs)), maxWaitMs);
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
