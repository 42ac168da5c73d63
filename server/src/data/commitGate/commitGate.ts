/**
 * The commit gate (adr/0006): a wrapper around Prisma's driver
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
  /** Bounds each COMMIT and ROLLBACK round trip (the config's DB_COMMIT_TIMEOUT_MS). */
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

  private readonly inner: Transaction;
  private readonly gate: CommitGateOptions;

  constructor(inner: Transaction, gate: CommitGateOptions) {
    this.inner = inner;
    this.gate = gate;
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
      if (context?.commitStarted) context.settlingCommit = true;
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

/** A connection of our pool (cancellableClient.ts), as the gate uses it while it holds it. */
type HeldClient = pg.PoolClient & HeardErrors & {
  cancelInFlight(): boolean;
  timedByGate: boolean;
};

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
function statementAsCommit(connections: Connections, query: SqlQuery, options: CommitGateOptions): Promise<SqlResultSet> {
  // The request and the attempt, read once: the connection may come from another request's
  // release, in that request's async scope, so nothing after it reads the scope (adr/0038).
  const context = currentContext();
  if (context?.signal.aborted) {
    countCommitGateRefusal('statement');
    return Promise.reject(context.signal.reason);
  }
  return new OwnCommit(connections, query, options, context, currentTransactionAttempt()).run();
}

/**
 * One statement that is its own commit, from taking its connection to its outcome (see
 * `statementAsCommit`). One object and one promise per deposit, its steps methods and
 * callbacks, not awaits: in Node 20 every promise and every await of a request pays the
 * async scope's hooks (adr/0025, adr/0038).
 */
class OwnCommit {
  private client: HeldClient | undefined;
  private hold: 'held' | 'disarmed' = 'disarmed';
  private commitStartedBefore: boolean | undefined;
  /** The statement went to the driver: only its deadline, its answer or its timeout end it now. */
  private sent = false;
  /** The caller has its outcome; what comes later only tidies up. */
  private settled = false;
  /** The deadline's instant came (once, whichever timer says it first). */
  private passed = false;
  /** The gate asked the database to cancel the statement at the deadline. */
  private cancelled = false;
  private timer: NodeJS.Timeout | undefined;
  private resolve!: (rows: SqlResultSet) => void;
  private reject!: (error: unknown) => void;

  private readonly connections: Connections;
  private readonly query: SqlQuery;
  private readonly options: CommitGateOptions;
  private readonly context: RequestContext | undefined;
  private readonly attempt: TransactionAttempt | undefined;

  constructor(
    connections: Connections,
    query: SqlQuery,
    options: CommitGateOptions,
    context: RequestContext | undefined,
    attempt: TransactionAttempt | undefined,
  ) {
    this.connections = connections;
    this.query = query;
    this.options = options;
    this.context = context;
    this.attempt = attempt;
  }

  run(): Promise<SqlResultSet> {
    return new Promise<SqlResultSet>((resolve, reject) => {
      this.resolve = resolve;
      this.reject = reject;
      const { pool } = this.connections;
      if (!pool) return this.start(undefined);
      // pg-pool's callback form: no promise of its own (adr/0030). A failed take sent nothing.
      pool.connect((error, client) => (error ? reject(error) : this.start(client as HeldClient)));
    });
  }

  /** The connection is ours (none on PGlite): refuse when the signal fired meanwhile, else hold the deadline and send. */
  private start(client: HeldClient | undefined): void {
    this.client = client;
    const { context } = this;
    try {
      // The deadline's own timer, held for this statement, calls `atDeadline` at its instant (adr/0035).
      const hold = context ? context.deadline.holdForOwnCommit(this) : 'disarmed';
      if (hold === 'refused') {
        countCommitGateRefusal('commit');
        client?.release();
        return this.reject(context!.signal.reason);
      }
      this.hold = hold;
      if (context) {
        countCommitGateDisarm();
        this.commitStartedBefore = context.commitStarted;
      }
      const seam = this.options.beforeCommitSent;
      if (!seam) return this.send();
      seam().then(
        () => this.send(),
        (error: unknown) => this.failBeforeSent(error),
      );
    } catch (error) {
      this.failBeforeSent(error);
    }
  }

  private send(): void {
    const { attempt, context, client, options } = this;
    let answer: Promise<SqlResultSet>;
    try {
      if (attempt) {
        attempt.commitStarted = attempt.commitPending = true;
        if (client?.processID != null) attempt.commitBackend = client.processID;
      }
      if (context) context.commitStarted = true;
      // The gate times and cancels this statement itself: no request's signal does (cancellableClient.ts).
      if (client) client.timedByGate = true;
      // adapter-pg's statement (its argument and row conversions) on the connection taken above.
      answer = (client ? this.connections.on(client) : this.connections.inner).queryRaw(this.query);
    } catch (error) {
      if (client) client.timedByGate = false;
      return this.failBeforeSent(error);
    }
    this.sent = true;
    const remainingMs = context?.deadline.remainingMs;
    if (remainingMs === undefined) this.timer = setTimeout(() => this.fail(new CommitOutcomeUnknown(options.commitTimeoutMs), false), options.commitTimeoutMs);
    // The common path: the deadline's timer, held for us, calls `atDeadline`. Else (a commit disarmed it before, or its instant passed): a timer of our own.
    else if (this.hold !== 'held' || remainingMs <= 0) this.timer = setTimeout(() => this.atDeadline(), Math.max(0, remainingMs));
    answer.then(
      (rows) => this.answered(rows),
      (error: unknown) => this.failedAtDatabase(error),
    );
  }

  /** The deadline's instant: cancel the statement at the database, then give it `cancelAcknowledgeMs` to answer. */
  atDeadline(): void {
    if (!this.sent || this.passed) return;
    this.passed = true;
    const { client, options } = this;
    this.cancelled = client?.cancelInFlight() === true;
    if (this.cancelled) this.context?.log.info({ processId: client?.processID }, 'cancelling a statement that is its own commit at the deadline');
    this.timer = setTimeout(() => this.fail(new CommitOutcomeUnknown(options.cancelAcknowledgeMs), false), options.cancelAcknowledgeMs);
  }

  private answered(rows: SqlResultSet): void {
    this.ended();
    this.client?.release();
    if (!this.cancelled) {
      if (!this.settled) {
        this.settled = true;
        this.resolve(rows);
      }
      return;
    }
    if (this.attempt) this.attempt.commitUnconfirmed = true;
    this.fail(new CommitOutcomeUnknown(this.options.cancelAcknowledgeMs, 'the statement answered only after its cancel, so a synchronous standby may not have it'), false);
  }

  private failedAtDatabase(error: unknown): void {
    const { client } = this;
    // Read before the release: the connection's next holder clears what it heard. PGlite, in
    // process, cannot lose an answer: any error of its rolled the statement back.
    const rolledBack = !client || rolledBackByItsError(client);
    this.ended();
    client?.release(error === undefined || rolledBack ? undefined : asError(error));
    this.fail(error, rolledBack && !(error instanceof CommitOutcomeUnknown));
  }

  /** The statement settled (answered or failed): nothing times it any more, and its connection is the pool's again to hand on (the caller releases it). */
  private ended(): void {
    clearTimeout(this.timer);
    if (this.hold === 'held') this.context!.deadline.endOwnCommit();
    if (this.attempt) this.attempt.commitPending = false;
    if (this.client) this.client.timedByGate = false;
  }

  /** Failed before anything was sent: the connection goes back, and nothing started. */
  private failBeforeSent(error: unknown): void {
    this.client?.release();
    this.fail(error, true);
  }

  /** The caller learns a failure, once; `rolledBack`: the attempt's commit counts as never started. */
  private fail(error: unknown, rolledBack: boolean): void {
    if (this.settled) return;
    this.settled = true;
    const { attempt, context } = this;
    if (rolledBack) {
      if (attempt) attempt.commitStarted = attempt.commitPending = false;
      if (context) context.commitStarted = this.commitStartedBefore;
    }
    if (this.hold === 'held') context!.deadline.endOwnCommit();
    if (context?.commitStarted) context.settlingCommit = true;
    context?.deadline.rearmAfterFailedCommit();
    this.reject(error);
  }
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
