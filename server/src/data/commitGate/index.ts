/**
 * The commit gate family: how no COMMIT starts after a request's deadline, and none is
 * cut once it started. `commitGate.ts` wraps Prisma's driver adapter so every COMMIT
 * first disarms the request's deadline (or is refused: the signal already fired) and a
 * COMMIT that does not answer in time is `CommitOutcomeUnknown`; `cancellableClient.ts`
 * is the pg client and pool whose statements the request's signal cancels on the server
 * (a cancel request), except a COMMIT that started.
 *
 * Other families and layers import it through this file only.
 */
export { CancellableClient, CancellablePool, type CancellablePoolConfig, lostPrimary } from './cancellableClient.ts';
export { type CommitGateOptions, CommitOutcomeUnknown, withCommitGate } from './commitGate.ts';
export { statementAsCommit } from './ownCommit.ts';
export { plainStatementOn, type OwnCommitTarget } from './ownCommitConnections.ts';
