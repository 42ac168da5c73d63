/**
 * One transaction through the commit gate (adr/0006): its statements are refused once the
 * request's signal fired; its COMMIT is refused when the signal fired, else sent with the
 * deadline disarmed and bounded by the commit timeout, its outcome kept on one `Commit`
 * (request/commitOutcome.ts, adr/0052) that the attempt and the request both read.
 *
 * Who sends COMMIT, by Prisma 7's public adapter contract (`Transaction.options.usePhantomQuery`
 * of @prisma/driver-adapter-utils; Prisma's TransactionManager and its driver adapter guide):
 * with `false` (adapter-pg's) Prisma sends COMMIT and ROLLBACK through `executeRaw` and
 * then calls `commit()` / `rollback()` only to release the connection; with `true` (PGlite's)
 * Prisma sends nothing and the adapter's `commit()` / `rollback()` do it. The gate reports
 * `true`, so Prisma's `commit()` reaches it before anything is sent, and it follows the same
 * contract for the transaction it wraps, whichever value that one reports (adr/0052).
 */
import type { SqlQuery, Transaction } from '@prisma/driver-adapter-utils';
import { currentContext } from '../../request/requestContext.ts';
import type { Commit } from '../../request/commitOutcome.ts';
import { currentTransactionAttempt } from '../retry/index.ts';
import { countCommitGateDisarm, countCommitGateRefusal } from '../../metrics.ts';
import type { CommitGateOptions } from './commitGateOptions.ts';
import { bounded } from './commitBound.ts';
import { refuseAfterSignal } from './refuseAfterSignal.ts';
import { sendCommit } from './sendCommit.ts';

const statement = (sql: string): SqlQuery => ({ sql, args: [], argTypes: [] });

/** What a gated transaction reports: the gate sends COMMIT itself, from `commit()`. */
const gateSendsCommit: Transaction['options'] = Object.freeze({ usePhantomQuery: true });

/**
 * One transaction through the gate. A class, not an object of closures: one is made for
 * every money send, so its methods live on the prototype.
 */
export class GatedTransaction implements Transaction {
  readonly provider: Transaction['provider'];
  readonly adapterName: string;
  readonly options = gateSendsCommit;
  /** COMMIT or ROLLBACK was asked for: a second (Prisma's cleanup) is a no-op. */
  private closed = false;
  /** The connection went back (once). */
  private released = false;
  /** The COMMIT this transaction sent, its outcome told as it answers. */
  private sent: Commit | undefined;

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
    try {
      if (this.gate.beforeCommitSent) await this.gate.beforeCommitSent();
      this.sent = sendCommit(context, currentTransactionAttempt());
      await this.finish('COMMIT');
    } catch (error) {
      // No answer within the bound: the COMMIT is in doubt and still running (a no-op once it answered).
      this.sent?.timedOut();
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

  /** Ends the transaction once, as the wrapped transaction's `usePhantomQuery` says it is ended. */
  private async finish(sql: 'COMMIT' | 'ROLLBACK'): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    if (this.inner.options.usePhantomQuery) return this.finishInAdapter(sql);
    await bounded(this.inner.executeRaw(statement(sql)), this.gate.commitTimeoutMs, (error) => this.settled(sql, error));
  }

  /** The wrapped adapter's `commit()` / `rollback()` send it themselves (PGlite's, in process). */
  private async finishInAdapter(sql: 'COMMIT' | 'ROLLBACK'): Promise<void> {
    if (sql === 'ROLLBACK') return this.inner.rollback();
    try {
      await this.inner.commit();
    } catch (error) {
      this.sent?.failed();
      throw error;
    }
    this.sent?.answered();
  }

  /** The COMMIT or ROLLBACK answered, failed or timed out and then settled: tell the commit, release the connection, once. */
  private settled(sql: 'COMMIT' | 'ROLLBACK', error: unknown): void {
    if (sql === 'COMMIT') {
      if (error === undefined) this.sent?.answered();
      else this.sent?.failed();
    }
    if (this.released) return;
    this.released = true;
    // A failed or timed-out COMMIT leaves a connection to discard: rollback() releases it.
    void (sql === 'COMMIT' ? this.inner.commit() : this.inner.rollback()).catch(() => {});
  }
}
