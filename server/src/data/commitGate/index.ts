/**
 * The commit gate family (adr/0006, adr/0075): how no COMMIT starts after a request's
 * deadline, and none is cut once it started, below Prisma. `cancellableClient.ts` is the pg
 * client and pool under `new PrismaPg(pool)`: no statement after the request's signal, every
 * COMMIT and ROLLBACK through the gate (`commitInClient.ts`: a COMMIT first disarms the
 * request's deadline or is refused, one that does not answer in time is
 * `CommitOutcomeUnknown`), and a statement running when the signal fires cancelled on the
 * server. `ownCommit.ts` sends a statement that is its own commit (adr/0027) with pg's API;
 * `pgliteGate.ts` is the gate on the embedded PGlite.
 *
 * Other families and layers import it through this file only.
 */
export { CancellableClient, CancellablePool, type CancellablePoolConfig, lostPrimary } from './cancellableClient.ts';
export { CommitOutcomeUnknown } from '../../request/commitOutcome.ts';
export type { CommitGateOptions } from './commitGateOptions.ts';
export { plainStatementOn, statementAsCommit, type OwnCommitTarget } from './ownCommit.ts';
export { gatedPglite, pgliteTransactionGate, type TransactionGate } from './pgliteGate.ts';
