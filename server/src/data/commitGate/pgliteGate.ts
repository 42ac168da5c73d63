/**
 * The commit gate on the embedded PGlite (adr/0075). The engine runs in this process: it is
 * never down, never hung and never loses an answer, so nothing is cancelled or bounded there.
 * What remains of the gate:
 *
 * - no statement or transaction starts once the request's signal fired: the engine Prisma's
 *   PGlite adapter is given refuses them (`gatedPglite`, beside pgliteReadOnly.ts);
 * - a transaction's COMMIT is refused when the signal fired, else the deadline is disarmed
 *   first, and the commit's outcome is one `Commit` (adr/0052) the request reads. That step
 *   cannot sit in the engine: pglite-prisma-adapter 0.x ends a transaction by resolving the
 *   engine's callback and answers Prisma "committed" whatever the engine then does (it drops
 *   the transaction's rejection). So it is taken at the end of Prisma's transaction callback
 *   (`pgliteTransactionGate`, run by the data layer's `runInTransaction`), where a refusal
 *   makes Prisma roll back; the engine's COMMIT follows with nothing awaited in between.
 */
import type { PGlite } from '@electric-sql/pglite';
import { currentContext, type RequestContext } from '../../request/requestContext.ts';
import { attemptCommit, type Commit } from '../../request/commitOutcome.ts';
import { countCommitGateDisarm, countCommitGateRefusal } from '../../metrics.ts';
import { refuseAfterSignal } from './refuseAfterSignal.ts';

/** `engine` refusing every statement and transaction once the request's signal fired: what `pglite-prisma-adapter` calls (`query`, `exec`, `transaction`). */
export function gatedPglite(engine: PGlite): PGlite {
  const view: Pick<PGlite, 'query' | 'exec' | 'transaction'> = {
    query: (sql, params, options) => {
      refuseAfterSignal();
      return engine.query(sql, params, options);
    },
    exec: (sql, options) => {
      refuseAfterSignal();
      return engine.exec(sql, options);
    },
    transaction: (work) => {
      refuseAfterSignal();
      return engine.transaction(work);
    },
  };
  return view as PGlite;
}

/** The gate at one transaction's end, where the database cannot take it below Prisma (PGlite). */
export interface TransactionGate {
  /** Runs `transaction`, whose callback calls `beforeCommit` last; tells the commit its outcome. */
  run<T>(transaction: (beforeCommit: () => void) => Promise<T>): Promise<T>;
}

/** PGlite's transaction gate, as described above. */
export const pgliteTransactionGate: TransactionGate = {
  async run(transaction) {
    const context = currentContext();
    const attempt = attemptCommit();
    let commit: Commit | undefined;
    const beforeCommit = () => {
      commit = disarmOrRefuse(context, attempt);
    };
    try {
      const result = await transaction(beforeCommit);
      (commit as Commit | undefined)?.answered();
      return result;
    } catch (error) {
      const sent = commit as Commit | undefined;
      if (sent) {
        sent.failed();
        context?.deadline.rearmAfterFailedCommit();
      }
      throw error;
    }
  },
};

/** One synchronous step: refuse the COMMIT when the signal fired (Prisma then rolls back), else disarm the deadline and send the commit. */
function disarmOrRefuse(context: RequestContext | undefined, commit: Commit): Commit {
  if (context && !context.deadline.disarmForCommit()) {
    countCommitGateRefusal('commit');
    throw context.signal.reason;
  }
  if (context) countCommitGateDisarm();
  commit.send(context);
  return commit;
}
