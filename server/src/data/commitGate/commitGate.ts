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
 * - A statement that is its own commit (adr/0027) does not pass here: the gate sends it
 *   with pg's own API on a connection of the primary's pool (ownCommit.ts, adr/0075).
 *
 * Each COMMIT's outcome is one `Commit` (request/commitOutcome.ts) that the attempt and
 * the request read.
 */
import type { SqlDriverAdapter, SqlDriverAdapterFactory } from '@prisma/driver-adapter-utils';
import type { CommitGateOptions } from './commitGateOptions.ts';
import { GatedTransaction } from './gatedTransaction.ts';
import { refuseAfterSignal } from './refuseAfterSignal.ts';

export type { CommitGateOptions } from './commitGateOptions.ts';
export { CommitOutcomeUnknown } from './commitBound.ts';

function gateAdapter(inner: SqlDriverAdapter, options: CommitGateOptions): SqlDriverAdapter {
  return {
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
