/**
 * Bulkhead at the password hash (adr/0012; PINs wait in no queue, adr/0053): a hash is scrypt, ~0.27 s of a core and
 * 32 MiB, and 48 of them at once made a real sign-in wait 3.7 s. At most
 * HASHING_CONCURRENCY hold a permit at once; up to HASHING_QUEUE more wait in its queue
 * (leaving it when their request's deadline fires); anyone beyond that is told at once: 503 with
 * a 1 s wait, nothing hashed and nothing counted.
 */
import { ApiProblem } from '../../errors/apiProblem.ts';
import { noteUnavailableCause } from '../../metrics.ts';
import { bulkhead, type Bulkhead } from '../bulkhead.ts';

/** The hashing bulkhead of one process. */
export function hashingBulkhead(concurrency: number, queue: number): Bulkhead {
  return bulkhead(concurrency, queue, () => {
    noteUnavailableCause('hashing_queue');
    return new ApiProblem('SERVICE_UNAVAILABLE', 'Too many sign-ins and sign-ups at once. Try again in a moment.', { retryAfterSeconds: 1 });
  });
}
