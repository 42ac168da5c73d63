/**
 * Is this error an outage? An outage is answered 503 with a wait, never 500: a fired
 * deadline, spent retries, a pool-wait or connect timeout, a COMMIT that did not answer
 * in time, or any database error the transient classifier names (a statement timeout
 * included: the database was too slow; a full disk too: the operator's to fix, not a bug).
 */
import { CommitOutcomeUnknown } from './commitGate/index.ts';
import { classify } from './retry/index.ts';
import { isDeadlineExceeded } from '../request/deadlineExceeded.ts';
import type { UnavailableCause } from '../metrics.ts';

/** What kind of outage the error is, or undefined when it is not one. */
export function outageOf(error: unknown): string | undefined {
  if (isDeadlineExceeded(error)) return 'deadline';
  if (error instanceof CommitOutcomeUnknown) return 'commitOutcomeUnknown';
  // Prisma's transaction API: no connection within maxWait, or a transaction past its timeout.
  if ((error as { code?: unknown } | null)?.code === 'P2028') return 'transactionTimeout';
  return classify(error)?.kind;
}

/**
 * Why an outage answers 503, for `tidewater_unavailable_total{cause}`: the deadline first
 * (whatever it cut short), then what the request noted (spent retries, a spent budget, a
 * busy account), then the error itself.
 */
export function unavailableCauseOf(error: unknown, noted?: string): UnavailableCause {
  if (isDeadlineExceeded(error)) return 'deadline';
  if (noted) return noted as UnavailableCause;
  if (error instanceof CommitOutcomeUnknown) return 'commit_outcome_unknown';
  if ((error as { code?: unknown } | null)?.code === 'P2028') return 'pool_wait';
  const classification = classify(error);
  if (!classification) return 'other';
  if (classification.kind === 'poolTimeout') return 'pool_wait';
  if (classification.code === 'CONNECT_TIMEOUT') return 'connect_timeout';
  if (classification.code === 'DATABASE_UNAVAILABLE') return 'database_unavailable';
  if (/^53[0-9A-Z]{3}$/.test(classification.code)) return 'insufficient_resources'; // a full disk, memory, connection slots
  if (/^[0-9A-Z]{5}$/.test(classification.code) && !/^P\d{4}$/.test(classification.code)) return 'transient_sqlstate';
  return 'connection';
}
