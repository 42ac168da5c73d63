/**
 * The resilience layers every connection passes, as one value `openDatabase` takes, so the
 * composition (app.ts) names them: the commit gate around each driver adapter, the
 * cancellable client in each pool, and one readiness gate in front of each server's pools.
 */
import type { SqlDriverAdapterFactory } from '@prisma/driver-adapter-utils';
import type pg from 'pg';
import { CancellableClient, type CancellablePoolConfig, withCommitGate, type CommitGateOptions } from '../commitGate/index.ts';
import { GatedPool } from './gatedPool.ts';
import { readinessGate, type GateOptions, type ReadinessGate } from './readinessGate.ts';

/** One database server's pools, and the gate they share (none when nothing gates them). */
export interface ServerPools {
  readonly gate?: ReadinessGate;
  pool(settings: CancellablePoolConfig): pg.Pool;
}

/** The layers between the data layer and pg. */
export interface ConnectionLayers {
  /** Wraps a driver adapter: no statement or COMMIT after the signal, a COMMIT bounded (data/commitGate/). */
  commitGate(factory: SqlDriverAdapterFactory, options: CommitGateOptions): SqlDriverAdapterFactory;
  /** The pg client class of every pool: a fired signal cancels its running statement, never a COMMIT. */
  readonly Client: typeof pg.Client;
  /** The pools of one server, behind its readiness gate (readinessGate.ts, gatedPool.ts). */
  server(gate: GateOptions): ServerPools;
}

/** The production layers (adr/0006, adr/0011). */
export const resilientConnections: ConnectionLayers = {
  commitGate: withCommitGate,
  Client: CancellableClient,
  server(options) {
    const gate = readinessGate(options);
    return { gate, pool: (settings) => new GatedPool(settings, gate) };
  },
};
