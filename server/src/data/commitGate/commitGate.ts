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
import type {
  SqlDriverAdapter,
  SqlDriverAdapterFactory,
  SqlQuery,
  Transaction,
} from '@prisma/driver-adapter-utils';
import { currentContext } from '../../request/requestContext.ts';
import { currentTransactionAttempt, type TransactionAttempt } from '../retry/index.ts';
import { countCommitGateDisarm, countCommitGateRefusal } from '../../metrics.ts';

/** Options of the gate. */
export interface CommitGateOptions {
  /** Bounds each COMMIT and ROLLBACK round trip (the config's DB_CONNECT_TIMEOUT_MS). */
  commitTimeoutMs: number;
  /** Test seam: runs just before COMMIT is sent (a slow or failing commit can be injected here). */
  beforeCommitSent?: () => Promise<void>;
}

/** A COMMIT that did not answer within its bound: it may or may not have landed. */
export class CommitOutcomeUnknown extends Error {
  readonly code = 'COMMIT_OUTCOME_UNKNOWN';
  constructor(timeoutMs: number) {
    super(`COMMIT did not answer within ${timeoutMs} ms; its outcome is unknown`);
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
function bounded(work: Promise<unknown>, ms: number, settled: (error?: unknown) => void): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new CommitOutcomeUnknown(ms)), ms);
    work.then(
      () => {
        clearTimeout(timer);
        settled();
        resolve();
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

function gateAdapter(inner: SqlDriverAdapter, options: CommitGateOptions): SqlDriverAdapter {
  return {
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
