/**
 * Is this error an outage? An outage is answered 503 with a wait, never 500: a fired
 * deadline, spent retries, a pool-wait or connect timeout, a COMMIT that did not answer
 * in time, or any database error the transient classifier names (a statement timeout
 * included: the database was too slow).
 */
import { CommitOutcomeUnknown } from './commitGate/index.ts';
import { classify } from './retry/index.ts';
import { isDeadlineExceeded } from '../request/deadlineExceeded.ts';

/** What kind of outage the error is, or undefined when it is not one. */
export function outageOf(error: unknown): string | undefined {
  if (isDeadlineExceeded(error)) return 'deadline';
  if (error instanceof CommitOutcomeUnknown) return 'commitOutcomeUnknown';
  // Prisma's transaction API: no connection within maxWait, or a transaction past its timeout.
  if ((error as { code?: unknown } | null)?.code === 'P2028') return 'transactionTimeout';
  return classify(error)?.kind;
}
