/**
 * `transact`: one transaction, or one statement that is its own commit, under the retry
 * policy (createDataLayer.ts): its attempts after a lost lock wait, and after a failed
 * attempt the look at a commit whose answer was lost, which settles the attempt's commit
 * (request/commitOutcome.ts, adr/0052) and decides what may run again.
 */
import type { Logger } from 'pino';
import { currentContext } from '../request/requestContext.ts';
import { type Commit, type CommitOutcome, runAttempt } from '../request/commitOutcome.ts';
import { ContentionExhausted, type RetryReason, classify, onReadWritePath } from './retry/index.ts';
import type { LostCommit, TransactionOptions } from './dataLayer.ts';
import { countLostLockWait } from '../metrics.ts';

/** What `transact` runs on: the data layer's own steps. */
export interface TransactSteps {
  /** The retry policy with the circuit breaker's wait. */
  execute<T>(fn: () => Promise<T>, isSafeToRetry?: (reason: RetryReason) => boolean): Promise<T>;
  /** The signal's reason, when it fired, as the outcome of `work`. */
  underSignal<T>(work: () => Promise<T>): Promise<T>;
  /** This request wrote (read-your-writes). */
  noteWrite(): void;
  readonly logger: Logger;
  /**
   * Behind a pooler (DB_SESSION_SETTINGS=role, adr/0060) the pid a connection reports is the
   * pooler's, not the server process's that got the COMMIT: nothing can wait for that process,
   * so a look that finds nothing proves nothing and the outcome stays unknown.
   */
  readonly behindPooler: boolean;
}

/** Runs one attempt of the work and hands what it committed to `answered`. */
export type OpenAttempt<T> = (answered: (value: T) => T) => Promise<T>;

/**
 * The `transact` of a data layer: runs `open` until an attempt commits, a failure may not
 * run again, or the retry policy gives up. Only work whose last commit cannot have moved
 * money runs again (or one the database confirmed was not applied).
 */
export function transactWith(steps: TransactSteps) {
  return function transact<T>(open: OpenAttempt<T>, options: TransactionOptions, landedAnswer?: () => T): Promise<T> {
    let lastCommit: Commit | undefined;
    return steps.execute(
      () => attemptUntilSettled(steps, open, options, landedAnswer, (commit) => (lastCommit = commit)),
      (reason) => lastCommit?.mayHaveMoved !== true || reason.confirmedNotApplied,
    );
  };
}

/** Attempts until one commits or a failure is settled; a lost lock wait is contention, tried again up to `contentionAttempts`. */
async function attemptUntilSettled<T>(
  steps: TransactSteps,
  open: OpenAttempt<T>,
  options: TransactionOptions,
  landedAnswer: (() => T) | undefined,
  noteCommit: (commit: Commit | undefined) => void,
): Promise<T> {
  let lostLocks = 0;
  for (;;) {
    // What the attempt answered once its work was done: the answer if only its COMMIT's was lost.
    let answered: { value: T } | undefined;
    const { commit, result } = runAttempt(() =>
      open((value) => {
        answered = { value };
        return value;
      }),
    );
    try {
      const value = await steps.underSignal(() => result);
      steps.noteWrite();
      return value;
    } catch (caught) {
      const error = onReadWritePath(caught);
      noteCommit(commit);
      if (isLostLockWait(error, commit, options)) {
        lostLocks += 1;
        countLostLockWait();
        if (lostLocks >= options.contentionAttempts!) throw new ContentionExhausted(options.contentionAttempts!, error);
        continue;
      }
      const done = answered;
      return await settleFailedAttempt(steps, error, commit, done ? () => done.value : landedAnswer, options);
    }
  }
}

/** A lost lock wait (55P03) before any commit could move money: contention, not an outage. */
function isLostLockWait(error: unknown, commit: Commit | undefined, options: TransactionOptions): boolean {
  return options.contentionAttempts !== undefined && commit?.mayHaveMoved !== true && classify(error)?.kind === 'lockNotAvailable';
}

/**
 * After a failed attempt: when its commit's answer was lost, look (`verifyCommitted`)
 * before anything runs again. Answers what landed; otherwise throws `error`, with the
 * commit proven not landed (safe to run again) or left unknown (503, `applied` unknown).
 */
async function settleFailedAttempt<T>(
  steps: TransactSteps,
  error: unknown,
  commit: Commit,
  landedValue: (() => T) | undefined,
  options: TransactionOptions,
): Promise<T> {
  try {
    const { verifyCommitted } = options;
    if (!landedValue || !verifyCommitted || !canBeLookedInto(commit.state) || classify(error)?.confirmedNotApplied) throw error;
    if (await verifyCommitted(lostCommitOf(commit.state, steps.behindPooler))) {
      commit.provenLanded();
      (currentContext()?.log ?? steps.logger).info({ label: options.label }, 'a commit whose answer was lost had landed');
      steps.noteWrite();
      return landedValue();
    }
    // Not visible, but the COMMIT has not settled (a paused synchronous standby holds it,
    // adr/0019), or it answered meanwhile, or no one could wait for its server process (a
    // pooler): it may have landed, so the outcome stays unknown.
    const now = commit.state;
    if (now.kind !== 'in-doubt' || now.stillRunning || now.unconfirmed || steps.behindPooler) throw error;
    commit.provenNotLanded();
    throw error;
  } finally {
    // Settled, or never to be: the router answers at the deadline again.
    commit.settleAsUnknown();
  }
}

/**
 * A look can settle a commit whose answer was lost (or that landed before a later step
 * failed), but not one that answered only after its cancel: committed on the primary,
 * perhaps not on its synchronous standby, which no look can tell.
 */
function canBeLookedInto(state: CommitOutcome): boolean {
  return state.kind === 'landed' || (state.kind === 'in-doubt' && !state.unconfirmed);
}

/** The lost commit as the look sees it: its server process, unless a pooler's pid stands in for it. */
function lostCommitOf(state: CommitOutcome, behindPooler: boolean): LostCommit {
  return !behindPooler && state.kind === 'in-doubt' && state.backendPid !== undefined ? { backendPid: state.backendPid } : {};
}
