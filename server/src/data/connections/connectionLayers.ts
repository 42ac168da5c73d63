/**
 * The resilience layers every connection passes, as one value `openDatabase` takes, so the
 * composition (app.ts) names them: the commit gate in each pool's client (the cancellable
 * client) and in the embedded PGlite, under each statement that is its own commit, and one
 * circuit breaker in front of each server's pools.
 */
import type { PGlite } from '@electric-sql/pglite';
import type pg from 'pg';
import {
  CancellableClient,
  type CancellablePoolConfig,
  type CommitGateOptions,
  type OwnCommitTarget,
  gatedPglite,
  pgliteTransactionGate,
  statementAsCommit,
  type TransactionGate,
} from '../commitGate/index.ts';
import type { SendStatement } from '../statements.ts';
import { BreakerPool } from './breakerPool.ts';
import { circuitBreaker, type BreakerOptions, type CircuitBreaker } from './circuitBreaker.ts';

/** One database server's pools, and the circuit breaker they share (none when no breaker guards them). */
export interface ServerPools {
  readonly breaker?: CircuitBreaker;
  pool(settings: CancellablePoolConfig): pg.Pool;
}

/** The layers between the data layer and pg. */
export interface ConnectionLayers {
  /** The embedded PGlite behind the gate: its engine refusing statements after the signal, and the gate at a transaction's end (data/commitGate/pgliteGate.ts). */
  pglite(engine: PGlite): { readonly engine: PGlite; readonly transactionGate?: TransactionGate };
  /** Sends a statement that is its own commit on `target`, gated as a COMMIT (data/commitGate/ownCommit.ts). */
  ownCommit(target: OwnCommitTarget, options: CommitGateOptions): SendStatement;
  /** The pg client class of every pool: the gate (no statement after the signal, COMMIT and ROLLBACK gated and bounded), and a fired signal cancels its running statement, never a COMMIT. */
  readonly Client: typeof pg.Client;
  /** The pools of one server, behind its circuit breaker (circuitBreaker.ts, breakerPool.ts). */
  server(breaker: BreakerOptions): ServerPools;
}

/** The production layers (adr/0006, adr/0011). */
export const resilientConnections: ConnectionLayers = {
  pglite: (engine) => ({ engine: gatedPglite(engine), transactionGate: pgliteTransactionGate }),
  ownCommit: (target, options) => (statement) => statementAsCommit(target, statement, options),
  Client: CancellableClient,
  server(options) {
    const breaker = circuitBreaker(options);
    return { breaker, pool: (settings) => new BreakerPool(settings, breaker) };
  },
};
