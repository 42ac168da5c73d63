/**
 * The commit gate (adr/0006, adr/0052): a wrapper around a Prisma 7 driver adapter factory,
 * through its public interfaces (`SqlDriverAdapterFactory`, `SqlDriverAdapter`,
 * `Transaction` of @prisma/driver-adapter-utils), that makes the request's deadline and
 * COMMIT agree.
 *
 * - No statement starts after the request's signal fired (deadline or hang-up).
 * - At COMMIT, in one synchronous step: refuse it when the signal fired, else disarm the
 *   deadline, so nothing cancels a commit that started. A commit that fails re-arms the
 *   deadline at its original instant (gatedTransaction.ts).
 * - COMMIT and ROLLBACK are bounded by the commit timeout (a COMMIT slower than it has an
 *   unknown outcome); a connection whose COMMIT or ROLLBACK timed out is released only
 *   when that statement finally settles, never handed to another request mid-statement.
 * - A statement may be sent as its own commit (adr/0027, ownCommit.ts), gated as a COMMIT,
 *   on a connection of the pool the gate is given (adr/0055).
 *
 * Each COMMIT's outcome is one `Commit` (request/commitOutcome.ts) that the attempt and
 * the request read.
 */
import type { SqlDriverAdapter, SqlDriverAdapterFactory, SqlQuery, SqlResultSet } from '@prisma/driver-adapter-utils';
import type { CommitGateOptions } from './commitGateOptions.ts';
import { GatedTransaction } from './gatedTransaction.ts';
import { statementAsCommit } from './ownCommit.ts';
import { refuseAfterSignal } from './refuseAfterSignal.ts';

export type { CommitGateOptions } from './commitGateOptions.ts';
export { CommitOutcomeUnknown } from './commitBound.ts';

/** An adapter that can also send one statement as its own commit (adr/0027). */
export interface CommittingAdapter extends SqlDriverAdapter {
  /**
   * Sends `query` alone, outside any transaction, so that it commits when it answers: a
   * COMMIT in all but name, and gated as one (ownCommit.ts).
   */
  queryRawAsCommit(query: SqlQuery): Promise<SqlResultSet>;
}

/** Whether `adapter` can send a statement as its own commit (the gate's adapters can). */
export function isCommittingAdapter(adapter: object): adapter is CommittingAdapter {
  return typeof (adapter as Partial<CommittingAdapter>).queryRawAsCommit === 'function';
}

function gateAdapter(inner: SqlDriverAdapter, options: CommitGateOptions): CommittingAdapter {
  const connections = { inner, pool: options.ownCommitPool };
  return {
    queryRawAsCommit: (query) => statementAsCommit(connections, query, options),
    provider: inner.provider,
    adapterName: inner.adapterName,
    queryRaw(query) {
      refuseAfterSignal();
      return inner.queryRaw(query);
    },
    executeRaw(query) {
      refuseAfterSignal();
      return inner.executeRaw(query);
    },
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
