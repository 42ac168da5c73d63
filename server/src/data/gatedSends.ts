/**
 * What the bank sends to its primary, gated (issue 51 item 3, adr/0077): a read, retried by
 * the one retry policy; a plain write; a transaction (Prisma's `$transaction`); and a
 * statement that is its own commit (adr/0027: the commit gate sends it, never cancelled once
 * sent, answered within the commit bound). After a failed attempt whose commit's answer was
 * lost, the caller's look (`verifyCommitted`, by its claim) settles the attempt's `Commit`
 * (request/commitOutcome.ts, adr/0052) and decides what may run again. The gate itself
 * lives below Prisma, in the pool's client and `commitGate/ownCommit.ts` (adr/0075).
 */
import type { Logger } from 'pino';
import type { ServerConfig } from '../config.ts';
import { currentContext } from '../request/requestContext.ts';
import { type Commit, type CommitOutcome, runAttempt } from '../request/commitOutcome.ts';
import { ContentionExhausted, type RetryPolicy, type RetryReason, classify, onReadWritePath } from './retry/index.ts';
import { type Database, markWithin, type ReadYourWritesStore, watchBreakers, type CircuitBreaker } from './connections/index.ts';
import type { LostCommit, StatementCommitOptions, TransactionOptions, Tx } from './dataLayer.ts';
import { committingStatement, type Statements } from './statements.ts';
import { countLostLockWait, countReadYourWritesMarkMissed } from '../metrics.ts';

/** What the sends run on. */
export interface GatedSendsOptions {
  readonly database: Database;
  readonly config: ServerConfig;
  readonly policy: RetryPolicy;
  readonly marks: ReadYourWritesStore;
  readonly logger: Logger;
}

/** Runs one attempt of the work and hands what it did before its commit to `answered`. */
type OpenAttempt<T> = (answered: (value: T) => T) => Promise<T>;

/** The sends of one database, as described above. */
export class GatedSends {
  private readonly options: GatedSendsOptions;
  /**
   * Behind a pooler (DB_SESSION_SETTINGS=role, adr/0060) the pid a connection reports is the
   * pooler's, not the server process's that got the COMMIT: nothing can wait for that process,
   * so a look that finds nothing proves nothing and the outcome stays unknown.
   */
  private readonly behindPooler: boolean;

  constructor(options: GatedSendsOptions) {
    this.options = options;
    this.behindPooler = options.config.dbSessionSettings === 'role';
  }

  /** A read, safe to run again after any retryable failure. */
  read<T>(work: () => Promise<T>): Promise<T> {
    return this.execute(() => this.underSignal(work), () => true);
  }

  /** A read on the primary's read-write connections, where a 25006 is a failover. */
  readOnPrimary<T>(work: () => Promise<T>): Promise<T> {
    return this.execute(() => this.onPrimary(() => this.underSignal(work)), () => true);
  }

  /** A plain write on the primary, run again only when the database confirms it applied nothing. */
  async write<T>(work: () => Promise<T>): Promise<T> {
    const result = await this.execute(() => this.onPrimary(() => this.underSignal(work)));
    await this.noteWrite();
    return result;
  }

  /** Prisma's interactive transaction: `fn`'s statements are its client's (`tx.$queryRaw`, `tx.$executeRaw`). */
  transaction<T>(fn: (tx: Tx) => Promise<T>, transactionOptions: TransactionOptions = {}): Promise<T> {
    const { database, config } = this.options;
    const { prisma, transactionGate } = database;
    const { isolationLevel } = transactionOptions;
    // The config's pool wait and deadline as Prisma's `maxWait` and `timeout`, never Prisma's own 2 s / 5 s by accident.
    const options = { maxWait: config.dbPoolWaitMs, timeout: config.requestDeadlineMs, ...(isolationLevel ? { isolationLevel } : {}) };
    return this.transact(
      (answered) =>
        transactionGate
          ? transactionGate.run((beforeCommit) =>
              prisma.$transaction(async (tx) => {
                const value = await fn(tx);
                beforeCommit();
                return answered(value);
              }, options),
            )
          : prisma.$transaction(async (tx) => answered(await fn(tx)), options),
      transactionOptions,
    );
  }

  /**
   * One direct statement that is its own commit (adr/0027): the commit gate sends it alone
   * on a connection it took, so no BEGIN and no COMMIT round trip. The pool's
   * `connectionTimeoutMillis` bounds the wait for that connection, and the commit timeout
   * the statement. No answer to keep for a look: the statement is the commit, so a lost
   * commit is a lost answer, which `landedAnswer` reads back.
   */
  statementAsCommit<T>(fn: (sql: Statements) => Promise<T>, options: StatementCommitOptions<T>): Promise<T> {
    return this.transact(() => fn(committingStatement(this.options.database.sendOwnCommit)), options, options.landedAnswer);
  }

  /**
   * This request wrote: its later reads, and its user's for a while, go to the primary. The
   * user's mark is committed before the write answers (adr/0078), waited for at most
   * `readYourWritesMarkWaitMs`: the visitor's next request may reach another API process
   * the moment the answer does. A mark that misses the answer is logged and counted; the
   * answer stays the write's (it committed).
   */
  async noteWrite(): Promise<void> {
    const context = currentContext();
    if (!context) return;
    context.hasWrites = true;
    const { config, database, marks } = this.options;
    // Marks only route reads to a replica: without one every read is the primary's already (and a database mark would cost a write).
    if (!context.userId || config.readYourWritesMs <= 0 || !database.hasReplica) return;
    const mark = await markWithin(marks, context.userId, Date.now() + config.readYourWritesMs, config.readYourWritesMarkWaitMs);
    if (mark.kind === 'landed') return;
    countReadYourWritesMarkMissed(mark.kind);
    const err = mark.kind === 'failed' ? mark.error : undefined;
    context.log.warn({ outcome: mark.kind, waitedMs: config.readYourWritesMarkWaitMs, err }, 'a read-your-writes mark did not land before the answer');
  }

  /**
   * Runs `open` until an attempt commits, a failure may not run again, or the retry policy
   * gives up. Only work whose last commit cannot have moved money runs again (or one the
   * database confirmed was not applied).
   */
  private transact<T>(open: OpenAttempt<T>, options: TransactionOptions, landedAnswer?: () => T): Promise<T> {
    let lastCommit: Commit | undefined;
    return this.execute(
      () => this.attemptUntilSettled(open, options, landedAnswer, (commit) => (lastCommit = commit)),
      (reason) => lastCommit?.mayHaveMoved !== true || reason.confirmedNotApplied,
    );
  }

  /** Attempts until one commits or a failure is settled; a lost lock wait is contention, tried again up to `contentionAttempts`. */
  private async attemptUntilSettled<T>(open: OpenAttempt<T>, options: TransactionOptions, landedAnswer: (() => T) | undefined, noteCommit: (commit: Commit) => void): Promise<T> {
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
        const value = await this.underSignal(() => result);
        await this.noteWrite();
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
        return await this.settleFailedAttempt(error, commit, done ? () => done.value : landedAnswer, options);
      }
    }
  }

  /**
   * After a failed attempt: when its commit's answer was lost, look (`verifyCommitted`)
   * before anything runs again. Answers what landed; otherwise throws `error`, with the
   * commit proven not landed (safe to run again) or left unknown (503, `applied` unknown).
   */
  private async settleFailedAttempt<T>(error: unknown, commit: Commit, landedValue: (() => T) | undefined, options: TransactionOptions): Promise<T> {
    try {
      const { verifyCommitted } = options;
      if (!landedValue || !verifyCommitted || !canBeLookedInto(commit.state) || classify(error)?.confirmedNotApplied) throw error;
      if (await verifyCommitted(lostCommitOf(commit.state, this.behindPooler))) {
        commit.provenLanded();
        (currentContext()?.log ?? this.options.logger).info({ label: options.label }, 'a commit whose answer was lost had landed');
        await this.noteWrite();
        return landedValue();
      }
      // Not visible, but the COMMIT has not settled (a paused synchronous standby holds it,
      // adr/0019), or it answered meanwhile, or no one could wait for its server process (a
      // pooler): it may have landed, so the outcome stays unknown.
      const now = commit.state;
      if (now.kind !== 'in-doubt' || now.stillRunning || now.unconfirmed || this.behindPooler) throw error;
      commit.provenNotLanded();
      throw error;
    } finally {
      // Settled, or never to be: the router answers at the deadline again.
      commit.settleAsUnknown();
    }
  }

  /**
   * Runs `fn` under the retry policy with the circuit breaker's wait: an attempt that met
   * an open circuit breaker waits for it to close (until the request's deadline) and runs
   * again, spending no retry. Outside a request nothing bounds such a wait, so there the
   * failure is an ordinary one.
   */
  private execute<T>(fn: () => Promise<T>, isSafeToRetry?: (reason: RetryReason) => boolean): Promise<T> {
    const requestSignal = currentContext()?.signal;
    const { logger } = this.options;
    let breakerMet: CircuitBreaker | undefined;
    return this.options.policy.execute(
      async () => {
        const watched = watchBreakers(fn);
        try {
          return await watched.result;
        } finally {
          breakerMet = watched.openBreakerMet();
        }
      },
      {
        signal: requestSignal,
        isSafeToRetry,
        waitForDatabase(wait) {
          const breaker = breakerMet;
          breakerMet = undefined;
          if (!requestSignal || !breaker) return undefined;
          // The request's cause is what opened the circuit breaker, not the breaker's own refusal.
          (currentContext()?.log ?? logger).warn({ breakerWait: wait, breaker: breaker.name, code: classify(breaker.openedBy)?.code, err: breaker.openedBy }, 'waiting for the database to answer again');
          return breaker.whenClosed(requestSignal);
        },
      },
    );
  }

  /**
   * Runs `work`; when the request's signal fired meanwhile, its reason (deadline, hang-up)
   * is the outcome, however the driver or Prisma wrapped the refusal or the cancel.
   */
  private async underSignal<T>(work: () => Promise<T>): Promise<T> {
    try {
      return await work();
    } catch (error) {
      const context = currentContext();
      if (context?.signal.aborted && !context.deadline.isDisarmed) throw context.signal.reason;
      throw error;
    }
  }

  /**
   * Runs `work` on the primary's read-write connections: a 25006 there means the server is
   * not the primary any more (adr/0019), a transient `NotPrimary`, not a bug.
   */
  private async onPrimary<T>(work: () => Promise<T>): Promise<T> {
    try {
      return await work();
    } catch (error) {
      throw onReadWritePath(error);
    }
  }
}

/** A lost lock wait (55P03) before any commit could move money: contention, not an outage. */
function isLostLockWait(error: unknown, commit: Commit, options: TransactionOptions): boolean {
  return options.contentionAttempts !== undefined && !commit.mayHaveMoved && classify(error)?.kind === 'lockNotAvailable';
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
