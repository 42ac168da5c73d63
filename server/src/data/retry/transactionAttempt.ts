/**
 * One attempt of `runInTransaction` or `runStatementAsCommit`, visible to the commit gate
 * through the async scope (request/asyncScope.ts): the gate hands the attempt the commit
 * it sends, so the retry layer can tell "failed before COMMIT" (safe to rerun) from
 * "outcome unknown" by that commit's one state (request/commitOutcome.ts, adr/0052).
 */
import { scopeSlot } from '../../request/asyncScope.ts';
import type { Commit } from '../../request/commitOutcome.ts';

/** One attempt of a transaction. */
export interface TransactionAttempt {
  /** The commit this attempt sent, once the gate sent one (none: nothing was sent). */
  commit?: Commit;
}

const slot = scopeSlot<TransactionAttempt>();

/** Runs `fn` as one attempt; answers its result and the attempt. */
export function runAttempt<T>(fn: () => Promise<T>): { attempt: TransactionAttempt; result: Promise<T> } {
  const attempt: TransactionAttempt = {};
  return { attempt, result: slot.run(attempt, fn) };
}

/** The attempt the caller runs in, if any. */
export function currentTransactionAttempt(): TransactionAttempt | undefined {
  return slot.get();
}
