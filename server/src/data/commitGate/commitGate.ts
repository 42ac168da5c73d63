/**
 * The commit gate (DESIGN.md "Commit gate"; adr/0006): a wrapper around Prisma's driver
 * adapter that makes the request's deadline and COMMIT agree.
 *
 * - No statement starts after the request's signal fired (deadline or hang-up).
 * - At COMMIT, in one synchronous step: refuse it when the signal fired, else disarm the
 *   deadline, so nothing cancels a commit that started. A commit that fails re-arms the
 *   deadline at its original instant.
 * - COMMIT and ROLLBACK are bounded by the connect timeout (a COMMIT slower than it has an
 *   unknown outcome); a connection whose COMMIT or ROLLBACK timed out is released only
 *   when that statement finally settles, never handed to another request mid-statement.
 *
 * Where the real COMMIT happens: `@prisma/adapter-pg` reports `usePhantomQuery: false`,
 * so Prisma would send `COMMIT` through `executeRaw` before calling `commit()` (which only
 * releases the connection). The gate therefore reports `usePhantomQuery: true` and sends
 * COMMIT itself from its own `commit()`. PGlite's adapter already commits in `commit()`.
 */
import pg from 'pg';
import type {
  SqlDriverAdapter,
  SqlDriverAdapterFactory,
  SqlQuery,
  SqlResultSet,
  Transaction,
} from '@prisma/driver-adapter-utils';
import { currentContext, type RequestContext } from '../../request/requestContext.ts';
import { currentTransactionAttempt, type TransactionAttempt } from '../retry/index.ts';
import { countCommitGateDisarm, countCommitGateRefusal } from '../../metrics.ts';

/** Options of the gate. */
export interface CommitGateOptions {
  /** Bounds each COMMIT and ROLLBACK round trip (the config's DB_CONNECT_TIMEOUT_MS). */
  commitTimeoutMs: number;
  /** How long a statement that is its own commit may take to answer once cancelled at the deadline (the chain's cancelAcknowledgeMs). */
  cancelAcknowledgeMs: number;
  /** Test seam: runs just before COMMIT is sent (a slow or failing commit can be injected here). */
  beforeCommitSent?: () => Promise<void>;
}

/** A COMMIT that did not answer within its bound: it may or may not have landed. */
export class CommitOutcomeUnknown extends Error {
  readonly code = 'COMMIT_OUTCOME_UNKNOWN';
  constructor(timeoutMs: number, why = `the commit did not answer within ${timeoutMs} ms`) {
    super(`${why}; its outcome is unknown`);
    this.name = 'CommitOutcomeUnknown';
  }
}

const statement = (sql: string): SqlQuery => ({ sql, args: [], argTypes: [] });

/** Throws the request's abort reason when its signal fired: no statement starts after it. */
function refuseAfterSignal(): void {
  const context = currentContext();
  if (!context?.signal.aborted) return;
  countCommitGateRefusal('statement');
  throw context.signal.reason;
}

/** `queryRaw` and `executeRaw` of `inner`, each refused once the request's signal fired. */
function guardedStatements(inner: Pick<Transaction, 'queryRaw' | 'executeRaw'>): Pick<Transaction, 'queryRaw' | 'executeRaw'> {
  return {
    queryRaw(query) {
      refuseAfterSignal();
      return inner.queryRaw(query);
    },
    executeRaw(query) {
      refuseAfterSignal();
      return inner.executeRaw(query);
    },
  };
}

/**
 * Runs `work`, failing after `ms`; `settled` always learns the real outcome later. One
 * promise and one timer per COMMIT: this runs on every money send.
 */
function bounded<T>(work: Promise<T>, ms: number, settled: (error?: unknown) => void): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const timer = setTimeout(() => reject(new CommitOutcomeUnknown(ms)), ms);
    work.then(
      (value) => {
        clearTimeout(timer);
        settled();
        resolve(value);
      },
      (error: unknown) => {
        clearTimeout(timer);
        settled(error);
        reject(error);
      },
    );
  });
}

/** What a gated transaction reports: the gate sends COMMIT itself, from `commit()`. */
const gateSendsCommit: Transaction['options'] = Object.freeze({ usePhantomQuery: true });

/**
 * One transaction through the gate. A class, not an object of closures: one is made for
 * every money send, so its methods live on the prototype.
 */
class GatedTransaction implements Transaction {
  readonly provider: Transaction['provider'];
  readonly adapterName: string;
  readonly options = gateSendsCommit;
  private closed = false;
  private released = false;
  /** The attempt whose COMMIT is on its way: told when it answers (`commitPending`). */
  private committing: TransactionAttempt | undefined;

  constructor(
    private readonly inner: Transaction,
    private readonly gate: CommitGateOptions,
  ) {
    this.provider = inner.provider;
    this.adapterName = inner.adapterName;
  }

  queryRaw(query: SqlQuery) {
    refuseAfterSignal();
    return this.inner.queryRaw(query);
  }

  executeRaw(query: SqlQuery) {
    refuseAfterSignal();
    return this.inner.executeRaw(query);
  }

  async commit(): Promise<void> {
    const context = currentContext();
    if (context && !context.deadline.disarmForCommit()) {
      countCommitGateRefusal('commit');
      await this.finish('ROLLBACK').catch(() => {});
      throw context.signal.reason;
    }
    if (context) countCommitGateDisarm();
    const attempt = currentTransactionAttempt();
    try {
      if (this.gate.beforeCommitSent) await this.gate.beforeCommitSent();
      if (attempt) attempt.commitStarted = attempt.commitPending = true;
      if (context) context.commitStarted = true;
      this.committing = attempt;
      await this.finish('COMMIT');
    } catch (error) {
      context?.deadline.rearmAfterFailedCommit();
      // Failed before COMMIT was sent (e.g. an injected fault): end the transaction here,
      // since Prisma does not roll back after a failed commit().
      await this.finish('ROLLBACK').catch(() => {});
      throw error;
    }
  }

  rollback(): Promise<void> {
    return this.finish('ROLLBACK');
  }

  // Savepoints pass through; an adapter without them gets the SQL Prisma would send itself.
  createSavepoint(name: string): Promise<void> {
    return this.inner.createSavepoint ? this.inner.createSavepoint(name) : this.executeRaw(statement(`SAVEPOINT ${name}`)).then(() => {});
  }

  rollbackToSavepoint(name: string): Promise<void> {
    return this.inner.rollbackToSavepoint ? this.inner.rollbackToSavepoint(name) : this.executeRaw(statement(`ROLLBACK TO SAVEPOINT ${name}`)).then(() => {});
  }

  releaseSavepoint(name: string): Promise<void> {
    return this.inner.releaseSavepoint ? this.inner.releaseSavepoint(name) : this.executeRaw(statement(`RELEASE SAVEPOINT ${name}`)).then(() => {});
  }

  /** Ends the transaction once; a second commit or rollback (Prisma's cleanup) is a no-op. */
  private async finish(sql: 'COMMIT' | 'ROLLBACK'): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    if (this.inner.options.usePhantomQuery) return sql === 'COMMIT' ? this.inner.commit() : this.inner.rollback();
    await bounded(this.inner.executeRaw(statement(sql)), this.gate.commitTimeoutMs, () => this.settled(sql));
  }

  /** The COMMIT or ROLLBACK answered, failed or timed out and then settled: release the connection, once. */
  private settled(sql: 'COMMIT' | 'ROLLBACK'): void {
    if (sql === 'COMMIT' && this.committing) this.committing.commitPending = false;
    if (this.released) return;
    this.released = true;
    // A failed or timed-out COMMIT leaves a connection to discard: rollback() releases it.
    void (sql === 'COMMIT' ? this.inner.commit() : this.inner.rollback()).catch(() => {});
  }
}

/** An adapter that can also send one statement as its own commit (adr/0027). */
export interface CommittingAdapter extends SqlDriverAdapter {
  /**
   * Sends `query` alone, outside any transaction, so that it commits when it answers: a
   * COMMIT in all but name, and gated as one (see `statementAsCommit`).
   */
  queryRawAsCommit(query: SqlQuery): Promise<SqlResultSet>;
}

/** Whether `adapter` can send a statement as its own commit (the gate's adapters can). */
export function isCommittingAdapter(adapter: object): adapter is CommittingAdapter {
  return typeof (adapter as Partial<CommittingAdapter>).queryRawAsCommit === 'function';
}

/** The pg pool under adapter-pg's adapter (its `underlyingDriver()`); none on PGlite. */
function poolOf(inner: SqlDriverAdapter): pg.Pool | undefined {
  const driver = (inner as { underlyingDriver?: () => unknown }).underlyingDriver?.();
  return driver instanceof pg.Pool ? driver : undefined;
}

/** What pg's client of our pool (cancellableClient.ts) says of the last error the server sent it. */
interface HeardErrors {
  processID: number | null;
  /** The SQLSTATE and severity of the server's error for the statement in flight, if any. */
  readonly statementFailure?: { code?: string; severity?: string } | undefined;
}

/**
 * The server answered the statement with an error that ended only the statement: an
 * autocommit statement that failed so rolled back, and its connection lives on. Not a
 * connection's end (08, 57P01 to 57P05 or a FATAL), and not an internal error (XX).
 */
function rolledBackByItsError(client: HeardErrors): boolean {
  const failure = client.statementFailure;
  if (!failure?.code) return false;
  if (failure.severity === 'FATAL' || failure.severity === 'PANIC') return false;
  return !/^(08|57P0|XX)/.test(failure.code);
}

/**
 * One statement as its own commit (adr/0027). The connection is taken while the deadline
 * still runs (a pool wait stays bounded by it); then, in one synchronous step, the gate
 * refuses when the signal fired, else disarms the deadline and marks the attempt's commit
 * started, and sends the statement. So the request waits for its answer, whatever the
 * deadline does: there is no answer at the deadline while it may commit.
 *
 * The statement keeps the deadline for itself: at that instant the gate cancels it at the
 * database. Unlike a COMMIT's, that cancel is safe, since PostgreSQL takes it only before
 * the statement's own commit: the statement then ends rolled back (57014), or it had
 * committed and answers so. Its answer is awaited `cancelAcknowledgeMs` beyond the deadline
 * (the commit timeout without one). Its outcome:
 *
 * - answered before its cancel: committed (the attempt's commit is no longer pending);
 * - answered after its cancel: committed on the primary, but perhaps not on a synchronous
 *   standby, since PostgreSQL takes a cancel in that wait as a mere warning (adr/0019). So
 *   unknown, and the attempt says no look may call it landed (`commitUnconfirmed`);
 * - answered with an error that ended only the statement (a lost lock wait, a cancel, a
 *   constraint): rolled back for sure, so the attempt's commit counts as never started,
 *   and the deadline is re-armed (firing at once when it has passed); the connection goes
 *   back to the pool;
 * - anything else (the connection ended, a FATAL, no answer in time): unknown, for the
 *   data layer's look (`verifyCommitted`); the connection is discarded once the statement
 *   settles, never handed on mid-statement.
 */
async function statementAsCommit(connections: Connections, query: SqlQuery, options: CommitGateOptions): Promise<SqlResultSet> {
  refuseAfterSignal();
  const { pool } = connections;
  const client = pool ? await takeConnection(pool) : undefined;
  const context = currentContext();
  // The deadline's own timer, held for this statement, calls the wait's `atDeadline` at its instant (adr/0035).
  let wait: DeadlineWait | undefined;
  const hold = context ? context.deadline.holdForOwnCommit(() => wait?.atDeadline()) : 'disarmed';
  if (hold === 'refused') {
    countCommitGateRefusal('commit');
    client?.release();
    throw context!.signal.reason;
  }
  if (context) countCommitGateDisarm();
  const attempt = currentTransactionAttempt();
  const commitStartedBefore = context?.commitStarted;
  const heard = client as unknown as (HeardErrors & { cancelInFlight(): boolean }) | undefined;
  let sent = false;
  try {
    if (options.beforeCommitSent) await options.beforeCommitSent();
    if (attempt) {
      attempt.commitStarted = attempt.commitPending = true;
      if (heard?.processID != null) attempt.commitBackend = heard.processID;
    }
    if (context) context.commitStarted = true;
    sent = true;
    // adapter-pg's statement (its argument and row conversions) on the connection taken above.
    const answer = (client ? connections.on(client) : connections.inner).queryRaw(query);
    // Hot: every deposit waits here. Inline arrows, not named ones (tsx names each named closure per call).
    return await new Promise<SqlResultSet>((resolve, reject) => {
      const bound = new DeadlineWait(heard, context, options.cancelAcknowledgeMs, reject);
      const remainingMs = context?.deadline.remainingMs;
      if (remainingMs === undefined) bound.timer = setTimeout(() => reject(new CommitOutcomeUnknown(options.commitTimeoutMs)), options.commitTimeoutMs);
      else {
        wait = bound;
        // The common path: the deadline's timer, held for us, calls it. Else (a commit disarmed it before, or its instant passed): a timer of our own.
        if (hold !== 'held' || remainingMs <= 0) bound.timer = setTimeout(() => bound.atDeadline(), Math.max(0, remainingMs));
      }
      answer.then(
        (rows) => {
          clearTimeout(bound.timer);
          if (hold === 'held') context!.deadline.endOwnCommit();
          if (attempt) attempt.commitPending = false;
          client?.release();
          if (!bound.cancelled) return resolve(rows);
          if (attempt) attempt.commitUnconfirmed = true;
          reject(new CommitOutcomeUnknown(options.cancelAcknowledgeMs, 'the statement answered only after its cancel, so a synchronous standby may not have it'));
        },
        (error: unknown) => {
          clearTimeout(bound.timer);
          if (hold === 'held') context!.deadline.endOwnCommit();
          if (attempt) attempt.commitPending = false;
          client?.release(error === undefined || (heard && rolledBackByItsError(heard)) ? undefined : asError(error));
          reject(error);
        },
      );
    });
  } catch (error) {
    if (!sent) client?.release();
    // Its own error rolled it back; so does any error of in-process PGlite, which cannot lose an answer.
    const rolledBack = !sent || (!(error instanceof CommitOutcomeUnknown) && (!heard || rolledBackByItsError(heard)));
    if (rolledBack) {
      if (attempt) attempt.commitStarted = attempt.commitPending = false;
      if (context) context.commitStarted = commitStartedBefore;
    }
    if (hold === 'held') context!.deadline.endOwnCommit();
    context?.deadline.rearmAfterFailedCommit();
    throw error;
  }
}

/**
 * A statement that is its own commit, from its deadline on: cancelled at the database at
 * that instant, then given `acknowledgeMs` to answer. A class, not closures: one per deposit
 * (tsx names every named closure on each call; adr/0030).
 */
class DeadlineWait {
  cancelled = false;
  timer: NodeJS.Timeout | undefined;
  private passed = false;

  constructor(
    private readonly heard: { processID: number | null; cancelInFlight(): boolean } | undefined,
    private readonly context: RequestContext | undefined,
    private readonly acknowledgeMs: number,
    private readonly reject: (error: unknown) => void,
  ) {}

  /** The deadline's instant (once, whichever timer says it first). */
  atDeadline(): void {
    if (this.passed) return;
    this.passed = true;
    this.cancelled = this.heard?.cancelInFlight() === true;
    if (this.cancelled) this.context?.log.info({ processId: this.heard?.processID }, 'cancelling a statement that is its own commit at the deadline');
    this.timer = setTimeout(() => this.reject(new CommitOutcomeUnknown(this.acknowledgeMs)), this.acknowledgeMs);
  }
}

/** A pooled connection, taken by pg-pool's callback form: one promise, where its promise form makes two here (adr/0030). */
function takeConnection(pool: pg.Pool): Promise<pg.PoolClient> {
  return new Promise((resolve, reject) => {
    pool.connect((error, client) => (error ? reject(error) : resolve(client!)));
  });
}

/**
 * Where a gated adapter's statements that are their own commits run: its pg pool (none on
 * PGlite), and adapter-pg's adapter bound to each pool connection, made once per
 * connection and not per statement (the adapter reads `this.client`).
 */
interface Connections {
  readonly inner: SqlDriverAdapter;
  readonly pool: pg.Pool | undefined;
  on(client: pg.PoolClient): SqlDriverAdapter;
}

function connectionsOf(inner: SqlDriverAdapter): Connections {
  const views = new WeakMap<pg.PoolClient, SqlDriverAdapter>();
  return {
    inner,
    pool: poolOf(inner),
    on(client) {
      let view = views.get(client);
      if (!view) {
        view = Object.create(inner, { client: { value: client } }) as SqlDriverAdapter;
        views.set(client, view);
      }
      return view;
    },
  };
}

const asError = (error: unknown): Error => (error instanceof Error ? error : new Error(String(error)));

function gateAdapter(inner: SqlDriverAdapter, options: CommitGateOptions): CommittingAdapter {
  const connections = connectionsOf(inner);
  return {
    queryRawAsCommit: (query) => statementAsCommit(connections, query, options),
    provider: inner.provider,
    adapterName: inner.adapterName,
    ...guardedStatements(inner),
    executeScript: (script) => inner.executeScript(script),
    async startTransaction(isolationLevel) {
      refuseAfterSignal();
      return new GatedTransaction(await inner.startTransaction(isolationLevel), options);
    },
    getConnectionInfo: inner.getConnectionInfo?.bind(inner),
    dispose: () => inner.dispose(),
  };
}

/** Wraps a driver adapter factory so every connection it makes passes the gate. */
export function withCommitGate(inner: SqlDriverAdapterFactory, options: CommitGateOptions): SqlDriverAdapterFactory {
  return {
    provider: inner.provider,
    adapterName: inner.adapterName,
    connect: async () => gateAdapter(await inner.connect(), options),
  };
}
