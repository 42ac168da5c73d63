/**
 * The state of one attempt of `runInTransaction`, visible to the commit gate through
 * AsyncLocalStorage: the gate marks when the attempt's COMMIT was sent, so the retry
 * layer can tell "failed before COMMIT" (safe to rerun) from "outcome unknown".
 */
import { AsyncLocalStorage } from 'node:async_hooks';

/** One attempt of a transaction. */
export interface TransactionAttempt {
  /** True once this attempt's COMMIT was sent to the database. */
  commitStarted: boolean;
}

const storage = new AsyncLocalStorage<TransactionAttempt>();

/** Runs `fn` as one attempt; answers its result and the attempt's state. */
export function runAttempt<T>(fn: () => Promise<T>): { attempt: TransactionAttempt; result: Promise<T> } {
  const attempt: TransactionAttempt = { commitStarted: false };
  return { attempt, result: storage.run(attempt, fn) };
}

/** The attempt the caller runs in, if any. */
export function currentTransactionAttempt(): TransactionAttempt | undefined {
  return storage.getStore();
}
