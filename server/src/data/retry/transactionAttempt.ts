/**
 * The state of one attempt of `runInTransaction`, visible to the commit gate through
 * the async scope (request/asyncScope.ts): the gate marks when the attempt's COMMIT was sent, so the retry
 * layer can tell "failed before COMMIT" (safe to rerun) from "outcome unknown".
 */
import type { SqlQueryable } from '@prisma/driver-adapter-utils';
import { scopeSlot } from '../../request/asyncScope.ts';

/** One attempt of a transaction. */
export interface TransactionAttempt {
  /** True once this attempt's COMMIT was sent to the database. */
  commitStarted: boolean;
  /**
   * True while a COMMIT that was sent has not answered (it may be waiting for a paused
   * synchronous standby, adr/0019): the transaction may still land, so nothing may say
   * it did not, whatever a look at the database finds now.
   */
  commitPending: boolean;
  /**
   * The server process (its pid) that the attempt's COMMIT was sent to. When the answer is
   * lost, "nothing found" proves nothing while that process may still be committing.
   */
  commitBackend?: number;
  /**
   * True when the commit answered only after it was cancelled (a statement that is its own
   * commit, adr/0027): PostgreSQL takes a cancel in the wait for a synchronous standby as a
   * warning, so it committed on the primary but perhaps not on the standby. Its outcome stays
   * unknown, and no look may call it landed.
   */
  commitUnconfirmed?: boolean;
  /** The driver adapter's transaction this attempt started (statements.ts): where its direct statements run. */
  transaction?: Pick<SqlQueryable, 'queryRaw' | 'executeRaw'>;
}

const slot = scopeSlot<TransactionAttempt>();

/** Runs `fn` as one attempt; answers its result and the attempt's state. */
export function runAttempt<T>(fn: () => Promise<T>): { attempt: TransactionAttempt; result: Promise<T> } {
  const attempt: TransactionAttempt = { commitStarted: false, commitPending: false };
  return { attempt, result: slot.run(attempt, fn) };
}

/** The attempt the caller runs in, if any. */
export function currentTransactionAttempt(): TransactionAttempt | undefined {
  return slot.get();
}
