/**
 * One attempt of `runInTransaction` or `runStatementAsCommit` is its one `Commit`
 * (request/commitOutcome.ts, adr/0052): made `not-started` as the attempt begins, visible to
 * the commit gate through the async scope (request/asyncScope.ts), which sends it, and read by
 * the retry layer, which tells "failed before COMMIT" (safe to rerun) from "outcome unknown"
 * by its one state. No other object holds where the attempt's commit stands (adr/0075).
 */
import { scopeSlot } from '../../request/asyncScope.ts';
import { Commit } from '../../request/commitOutcome.ts';

const slot = scopeSlot<Commit>();

/** Runs `fn` as one attempt; answers its result and the attempt's commit. */
export function runAttempt<T>(fn: () => Promise<T>): { commit: Commit; result: Promise<T> } {
  const commit = new Commit();
  return { commit, result: slot.run(commit, fn) };
}

/** The commit of the attempt the caller runs in, if any. */
export function currentAttemptCommit(): Commit | undefined {
  return slot.get();
}
