/**
 * The outcome of one COMMIT (or one statement that is its own commit, adr/0027) as one
 * typed state, owned by one `Commit` object (adr/0052). The commit gate moves it as the
 * COMMIT is sent and answers; the data layer moves it once its look at a lost answer has
 * settled it; everyone else only reads it: the retry layer (may this attempt run again?),
 * the router (does the answer wait for a look?) and the idempotency protocol (may a 503
 * say `applied: false`?). A transition that the state does not allow throws.
 *
 * An attempt of a transaction or of a statement that is its own commit *is* its one
 * `Commit` (`runAttempt`, adr/0075, adr/0077): made `not-started` as the attempt begins,
 * found by the commit gate through the async scope (request/asyncScope.ts), which sends it,
 * and read by the retry layer, which tells "failed before COMMIT" (safe to rerun) from
 * "outcome unknown" by its one state. No other object holds where a commit stands.
 */
import { scopeSlot } from './asyncScope.ts';

/** Where a commit stands. */
export type CommitOutcome =
  /** Nothing was sent yet. */
  | { readonly kind: 'not-started' }
  /** Sent, no answer yet; `cancel` once the deadline's instant came to a statement that is its own commit. */
  | { readonly kind: 'in-flight'; readonly backendPid?: number; readonly cancel?: CancelAtDeadline }
  /** The database answered that it committed. */
  | { readonly kind: 'landed' }
  /** Ended without moving anything: refused at the deadline, failed before it was sent, or rolled back by its own error. */
  | { readonly kind: 'refused' }
  /**
   * Sent and its answer lost (the connection ended, no answer in its bound), or answered
   * only after its cancel (`unconfirmed`: committed on the primary, perhaps not on a
   * synchronous standby). The data layer looks; meanwhile the answer waits for it.
   * `stillRunning`: the statement has not settled, so it may still land whatever a look finds.
   */
  | InDoubt
  /** A look proved the lost commit did not land. */
  | { readonly kind: 'not-landed' }
  /** Nobody can tell: the data layer gave up on it (a 503 without `applied`). */
  | { readonly kind: 'unknown'; readonly stillRunning: boolean };

/** Whether the gate asked the database to cancel the statement at the deadline. */
export type CancelAtDeadline = 'sent' | 'not-sent';

type InDoubt = {
  readonly kind: 'in-doubt';
  readonly backendPid?: number;
  readonly stillRunning: boolean;
  readonly unconfirmed: boolean;
  readonly cancel?: CancelAtDeadline;
};

/** A COMMIT (or a statement that is its own commit) that did not answer within its bound (adr/0006): it may or may not have landed. */
export class CommitOutcomeUnknown extends Error {
  readonly code = 'COMMIT_OUTCOME_UNKNOWN';
  constructor(timeoutMs: number, why = `the commit did not answer within ${timeoutMs} ms`) {
    super(`${why}; its outcome is unknown`);
    this.name = 'CommitOutcomeUnknown';
  }
}

/** A transition the commit's state does not allow: a bug in the gate or the data layer. */
export class IllegalCommitTransition extends Error {
  constructor(transition: string, from: CommitOutcome['kind']) {
    super(`a commit cannot ${transition} when it is ${from}`);
    this.name = 'IllegalCommitTransition';
  }
}

const notStarted: CommitOutcome = Object.freeze({ kind: 'not-started' });
const landed: CommitOutcome = Object.freeze({ kind: 'landed' });
const refused: CommitOutcome = Object.freeze({ kind: 'refused' });
const notLanded: CommitOutcome = Object.freeze({ kind: 'not-landed' });

/** One commit's state and its only writer. */
export class Commit {
  #state: CommitOutcome = notStarted;

  get state(): CommitOutcome {
    return this.#state;
  }

  /** Money may have moved: sent and not proven otherwise. */
  get mayHaveMoved(): boolean {
    const { kind } = this.#state;
    return kind === 'in-flight' || kind === 'landed' || kind === 'in-doubt' || kind === 'unknown';
  }

  /** The COMMIT goes to the database now, one of `request`'s commits (the router and the idempotency protocol read them). */
  send(request?: RequestCommits): void {
    this.#expect('send', 'not-started');
    noteRequestCommit(request, this);
    this.#state = { kind: 'in-flight' };
  }

  /** The server process that receives the COMMIT (noted by the pool's client); ignored unless in flight. */
  sentTo(backendPid: number): void {
    if (this.#state.kind === 'in-flight') this.#state = { ...this.#state, backendPid };
  }

  /** The deadline's instant came to a statement in flight; false when it came before (one of two timers) or the statement is done. */
  deadlinePassed(cancel: CancelAtDeadline): boolean {
    const state = this.#state;
    if (state.kind !== 'in-flight' || state.cancel !== undefined) return false;
    this.#state = { ...state, cancel };
    return true;
  }

  /**
   * The database answered "done". After a cancel that is not a proof for a synchronous
   * standby (unconfirmed). A late answer to a commit a look already proved landed changes
   * nothing, and one the data layer gave up on stays unknown. Answers whether it is landed now.
   */
  answered(): boolean {
    const state = this.#state;
    if (state.kind === 'landed') return true;
    if (state.kind === 'unknown') {
      // The request was told "unknown" already: that stays its answer.
      this.#state = { kind: 'unknown', stillRunning: false };
      return false;
    }
    if (state.kind !== 'in-flight' && state.kind !== 'in-doubt') throw new IllegalCommitTransition('be answered', state.kind);
    if ((state.kind === 'in-flight' || state.kind === 'in-doubt') && state.cancel === 'sent') {
      this.#state = inDoubt(state, { stillRunning: false, unconfirmed: true });
      return false;
    }
    this.#state = landed;
    return true;
  }

  /** The database answered with an error that does not prove a rollback (the connection ended, a FATAL): lost. */
  failed(): void {
    const state = this.#state;
    if (state.kind === 'landed') return;
    if (state.kind === 'in-flight' || state.kind === 'in-doubt') this.#state = inDoubt(state, { stillRunning: false });
    else if (state.kind === 'unknown') this.#state = { kind: 'unknown', stillRunning: false };
    else throw new IllegalCommitTransition('fail', state.kind);
  }

  /** No answer within its bound: lost, and the statement still runs. A no-op once it has an outcome. */
  timedOut(): void {
    const state = this.#state;
    if (state.kind === 'in-flight') this.#state = inDoubt(state, { stillRunning: true });
  }

  /** Nothing moved: refused before it was sent, or an error that ended only the statement rolled it back. */
  refused(): void {
    this.#expect('be refused', 'not-started', 'in-flight');
    this.#state = refused;
  }

  /** The data layer's look found it landed (or it had answered so before a later step failed). */
  provenLanded(): void {
    this.#expect('be proven landed', 'in-doubt', 'landed');
    this.#state = landed;
  }

  /** The data layer's look found nothing, and the statement has settled: it did not land. */
  provenNotLanded(): void {
    const state = this.#state;
    if (state.kind !== 'in-doubt' || state.stillRunning || state.unconfirmed) throw new IllegalCommitTransition('be proven not landed', state.kind);
    this.#state = notLanded;
  }

  /** The data layer stops looking: a commit still in doubt stays unknown. */
  settleAsUnknown(): void {
    const state = this.#state;
    if (state.kind === 'in-doubt') this.#state = { kind: 'unknown', stillRunning: state.stillRunning };
  }

  #expect(transition: string, ...kinds: Array<CommitOutcome['kind']>): void {
    if (!kinds.includes(this.#state.kind)) throw new IllegalCommitTransition(transition, this.#state.kind);
  }
}

function inDoubt(from: Extract<CommitOutcome, { kind: 'in-flight' | 'in-doubt' }>, change: { stillRunning: boolean; unconfirmed?: boolean }): InDoubt {
  return {
    kind: 'in-doubt',
    stillRunning: change.stillRunning,
    unconfirmed: change.unconfirmed ?? (from.kind === 'in-doubt' && from.unconfirmed),
    ...(from.backendPid === undefined ? {} : { backendPid: from.backendPid }),
    ...(from.cancel === undefined ? {} : { cancel: from.cancel }),
  };
}

const attempts = scopeSlot<Commit>();

/** Runs `fn` as one attempt: answers its result and the attempt's commit, which the gate sends when `fn` commits. */
export function runAttempt<T>(fn: () => Promise<T>): { commit: Commit; result: Promise<T> } {
  const commit = new Commit();
  return { commit, result: attempts.run(commit, fn) };
}

/** The commit of the attempt the caller runs in; a new one outside an attempt (a commit no retry layer reads). */
export function attemptCommit(): Commit {
  return attempts.get() ?? new Commit();
}

/** The commits one request sent (its context's `commits`): what the router and the idempotency protocol read. */
export interface RequestCommits {
  commits?: Commit[];
}

/** Notes `commit` as one of the request's. */
export function noteRequestCommit(request: RequestCommits | undefined, commit: Commit): void {
  if (!request) return;
  (request.commits ??= []).push(commit);
}

/** A commit of the request may have moved money (a 503 must not say `applied: false`, the claim is not released). */
export function requestMayHaveMoved(request: RequestCommits): boolean {
  return request.commits?.some((commit) => commit.mayHaveMoved) === true;
}

/** A commit of the request lost its answer and the data layer is looking: the answer waits for the look. */
export function requestIsSettlingCommit(request: RequestCommits): boolean {
  return request.commits?.some((commit) => commit.state.kind === 'in-doubt') === true;
}
