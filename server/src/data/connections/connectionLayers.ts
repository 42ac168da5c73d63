/**
 * The resilience layers every connection passes, as one value `openDatabase` takes, so the
 * composition (app.ts) names them: the commit gate around each driver adapter and under each
 * statement that is its own commit, the cancellable client in each pool, and one circuit
 * breaker in front of each server's pools.
 */
import type { SqlDriverAdapterFactory } from '@prisma/driver-adapter-utils';
import type pg from 'pg';
import {
  CancellableClient,
  type CancellablePoolConfig,
  type CommitGateOptions,
  type OwnCommitTarget,
  statementAsCommit,
  withCommitGate,
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
  /** Wraps a driver adapter: no statement or COMMIT after the signal, a COMMIT bounded (data/commitGate/). */
  commitGate(factory: SqlDriverAdapterFactory, options: CommitGateOptions): SqlDriverAdapterFactory;
  /** Sends a statement that is its own commit on `target`, gated as a COMMIT (data/commitGate/ownCommit.ts). */
  ownCommit(target: OwnCommitTarget, options: CommitGateOptions): SendStatement;
  /** The pg client class of every pool: a fired signal cancels its running statement, never a COMMIT. */
  readonly Client: typeof pg.Client;
  /** The pools of one server, behind its circuit breaker (circuitBreaker.ts, breakerPool.ts). */
  server(breaker: BreakerOptions): ServerPools;
}

/** The production layers (adr/0006, adr/0011). */
export const resilientConnections: ConnectionLayers = {
  commitGate: withCommitGate,
  ownCommit: (target, options) => (statement) => statementAsCommit(target, statement, options),
  Client: CancellableClient,
  server(options) {
    const breaker = circuitBreaker(options);
    return { breaker, pool: (settings) => new BreakerPool(settings, breaker) };
  },
};
