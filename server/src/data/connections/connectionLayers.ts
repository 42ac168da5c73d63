/**
 * The resilience layers every connection passes, as one value `openDatabase` takes, so the
 * composition (app.ts) names them: the commit gate around each driver adapter, the
 * cancellable client in each pool, and one circuit breaker in front of each server's pools.
 */
import type { SqlDriverAdapterFactory } from '@prisma/driver-adapter-utils';
import type pg from 'pg';
import { CancellableClient, type CancellablePoolConfig, withCommitGate, type CommitGateOptions } from '../commitGate/index.ts';
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
  /** The pg client class of every pool: a fired signal cancels its running statement, never a COMMIT. */
  readonly Client: typeof pg.Client;
  /** The pools of one server, behind its circuit breaker (circuitBreaker.ts, breakerPool.ts). */
  server(breaker: BreakerOptions): ServerPools;
}

/** The production layers (adr/0006, adr/0011). */
export const resilientConnections: ConnectionLayers = {
  commitGate: withCommitGate,
  Client: CancellableClient,
  server(options) {
    const breaker = circuitBreaker(options);
    return { breaker, pool: (settings) => new BreakerPool(settings, breaker) };
  },
};
