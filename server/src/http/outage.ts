/**
 * Is this error an outage? An outage is answered 503 with a wait, never 500: a fired
 * deadline, spent retries, a pool-wait or connect timeout, or any database error the
 * transient classifier names (a statement timeout included: the database was too slow).
 */
import { classify } from '../data/transient.ts';
import { isDeadlineExceeded } from './deadlineExceeded.ts';

/** What kind of outage the error is, or undefined when it is not one. */
export function outageOf(error: unknown): string | undefined {
  if (isDeadlineExceeded(error)) return 'deadline';
  return classify(error)?.kind;
}
