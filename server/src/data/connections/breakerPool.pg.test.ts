/**
 * The breaker pool against a real PostgreSQL (adr/0019): a read-write connection that met
 * 25006 is marked lost by the cancellable client, and the breaker pool's release keeps it
 * out of the pool, so the rerun logs in afresh.
 */
import type pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startPrimary, type PgCluster } from '@tidewater/test-support/pgCluster';
import { CancellableClient, lostPrimary } from '../commitGate/index.ts';
import { endedQuietly } from '@tidewater/test-support/endedQuietly';
import { BreakerPool } from './breakerPool.ts';
import { circuitBreaker } from './circuitBreaker.ts';

describe('the breaker pool on PostgreSQL', () => {
  let cluster: PgCluster;

  beforeAll(async () => {
    cluster = await startPrimary();
  });
  afterAll(async () => {
    await cluster?.destroy();
  });

  const pidOf = async (client: pg.PoolClient) => (await client.query<{ pid: number }>('SELECT pg_backend_pid() AS pid')).rows[0]!.pid;

  it("marks a read-write connection that met 25006 as lost, and the breaker pool's release keeps it out of the pool", async () => {
    const breaker = circuitBreaker({ name: 'primary', probe: async () => undefined, intervalMs: 1_000 });
    const pool = endedQuietly(new BreakerPool({ connectionString: cluster.urlFor('tidewater'), Client: CancellableClient, max: 1 }, breaker));
    const connectThroughBreaker = () => pool.connect() as unknown as Promise<pg.PoolClient>; // typed `never` by the override
    try {
      const client = await connectThroughBreaker();
      const before = await pidOf(client);
      await client.query('SET default_transaction_read_only = on');
      await expect(client.query('CREATE TEMP TABLE refused (n int)')).rejects.toMatchObject({ code: '25006' });
      client.release(); // no error given: the mark alone discards it
      expect((client as unknown as Record<symbol, boolean>)[lostPrimary]).toBe(true);
      const fresh = await connectThroughBreaker();
      try {
        expect(await pidOf(fresh)).not.toBe(before);
        expect((fresh as unknown as Record<symbol, boolean>)[lostPrimary]).toBe(false);
      } finally {
        fresh.release();
      }
    } finally {
      await pool.end();
      breaker.stop();
    }
  });

  it('keeps it out of the pool when taken by the callback form too (the commit gate takes its connections so)', async () => {
    const breaker = circuitBreaker({ name: 'primary', probe: async () => undefined, intervalMs: 1_000 });
    const pool = endedQuietly(new BreakerPool({ connectionString: cluster.urlFor('tidewater'), Client: CancellableClient, max: 1 }, breaker));
    const connectByCallback = () =>
      new Promise<pg.PoolClient>((resolve, reject) => {
        (pool.connect as unknown as (callback: (error: Error | undefined, client: pg.PoolClient) => void) => void)((error, client) => (error ? reject(error) : resolve(client)));
      });
    try {
      const client = await connectByCallback();
      const before = await pidOf(client);
      await client.query('SET default_transaction_read_only = on');
      await expect(client.query('CREATE TEMP TABLE refused (n int)')).rejects.toMatchObject({ code: '25006' });
      client.release();
      const fresh = await connectByCallback();
      try {
        expect(await pidOf(fresh)).not.toBe(before);
      } finally {
        fresh.release();
      }
      // A healthy connection is pooled again, whichever form took it.
      const again = await connectByCallback();
      const kept = await pidOf(again);
      again.release();
      const reused = await connectByCallback();
      try {
        expect(await pidOf(reused)).toBe(kept);
      } finally {
        reused.release();
      }
    } finally {
      await pool.end();
      breaker.stop();
    }
  });
});
