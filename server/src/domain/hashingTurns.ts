/**
 * Turns at the password and PIN hash (adr/0012): a hash is scrypt, ~0.27 s of a core and
 * 32 MiB, and 48 of them at once made a real sign-in wait 3.7 s. At most
 * HASHING_CONCURRENCY run at once; up to HASHING_QUEUE more wait their turn (leaving the
 * line when their request's deadline fires); anyone beyond that is told at once: 503 with
 * a 1 s wait, nothing hashed and nothing counted.
 */
import { ApiProblem } from '../errors/apiProblem.ts';
import { noteUnavailableCause } from '../metrics.ts';

/** Gives back a turn (safe to call twice). */
export type ReleaseTurn = () => void;

/** The turns of one process. */
export function hashingTurns(concurrency: number, queue: number) {
  let running = 0;
  const waiting: Array<() => void> = [];

  return {
    /** Waits for a turn; throws the 503 when the line is full, or the signal's reason when it fires first. */
    async take(signal?: AbortSignal): Promise<ReleaseTurn> {
      signal?.throwIfAborted();
      if (running < concurrency) running += 1;
      else {
        if (waiting.length >= queue) {
          noteUnavailableCause('hashing_queue');
          throw new ApiProblem('SERVICE_UNAVAILABLE', 'Too many sign-ins and PIN checks at once. Try again in a moment.', { retryAfterSeconds: 1 });
        }
        // A turn given back passes straight to the first in line, so `running` stays as it is.
        await new Promise<void>((resolve, reject) => {
          const go = () => {
            signal?.removeEventListener('abort', leave);
            resolve();
          };
          const leave = () => {
            waiting.splice(waiting.indexOf(go), 1);
            reject(signal!.reason);
          };
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
    /** For tests and metrics. */
    state: () => ({ running, waiting: waiting.length }),
  };
}
