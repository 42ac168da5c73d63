/**
 * The commit gate in the pool's client against a real PostgreSQL (adr/0075): the COMMIT text
 * Prisma's adapter-pg sends reaches the client's `query`, where the gate makes it the
 * attempt's one `Commit`, noted with its backend; a COMMIT after the signal fired is never
 * sent (a ROLLBACK goes instead, so the connection goes back out of any transaction); a COMMIT
 * slower than the commit bound answers `CommitOutcomeUnknown`, and its connection is handed
 * to no one before that COMMIT settled. The slow COMMIT is a real one: a deferred constraint
 * trigger sleeps at commit time.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type pg from 'pg';
import { startPrimary, type PgCluster } from '@tidewater/test-support/pgCluster';
import { inRequest } from '../../../test/support/inRequest.ts';
import { endedQuietly } from '@tidewater/test-support/endedQuietly';
import { isDeadlineExceeded } from '../../request/deadlineExceeded.ts';
import { attemptCommit, runAttempt } from '../../request/commitOutcome.ts';
import { CancellableClient, CancellablePool, type CancellablePoolConfig, CommitOutcomeUnknown } from './index.ts';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const commitTimeoutMs = 300;

describe('the commit gate in the pool client on PostgreSQL', () => {
  let cluster: PgCluster;
  let pool: CancellablePool;

  beforeAll(async () => {
    cluster = await startPrimary();
    const settings: CancellablePoolConfig = { connectionString: cluster.urlFor('tidewater'), Client: CancellableClient, max: 1, commitGate: { commitTimeoutMs, cancelAcknowledgeMs: 100 } };
    pool = endedQuietly(new CancellablePool(settings));
    await pool.connect().then(async (client) => {
      await client.query(`
        CREATE TABLE gate_probe (id int PRIMARY KEY, slow boolean NOT NULL DEFAULT false);
        CREATE FUNCTION gate_probe_slow_commit() RETURNS trigger LANGUAGE plpgsql AS $$
          BEGIN IF NEW.slow THEN PERFORM pg_sleep(1); END IF; RETURN NULL; END $$;
        CREATE CONSTRAINT TRIGGER gate_probe_at_commit AFTER INSERT ON gate_probe
          DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION gate_probe_slow_commit();`);
      client.release();
    });
  });
  afterAll(async () => {
    await pool?.end();
    await cluster?.destroy();
  });

  const pidOf = async (client: pg.PoolClient) => (await client.query<{ pid: number }>('SELECT pg_backend_pid() AS pid')).rows[0]!.pid;
  /** Whether probe `id` committed (the pool's own query is typed `never` by the override that passes every form through). */
  const landed = async (id: number) => {
    const { rows } = (await pool.query({ text: 'SELECT count(*)::int AS n FROM gate_probe WHERE id = $1', values: [id] })) as unknown as pg.QueryResult<{ n: number }>;
    return rows[0]!.n === 1;
  };

  it("makes each COMMIT the attempt's commit, noted with its backend while in flight, landed once it answers", async () => {
    const client = await pool.connect();
    try {
      const pid = await pidOf(client);
      const { commit, result } = runAttempt(async () => {
        await client.query('BEGIN');
        await client.query('INSERT INTO gate_probe (id) VALUES (1)');
        const committing = client.query('COMMIT');
        const inFlight = attemptCommit().state;
        await committing;
        return inFlight;
      });
      expect(await result).toEqual({ kind: 'in-flight', backendPid: pid });
      expect(commit.state).toEqual({ kind: 'landed' });
    } finally {
      client.release();
    }
    expect(await landed(1)).toBe(true);
  });

  it('never sends a COMMIT after the signal fired: it rolls back, and the connection goes back out of the transaction', async () => {
    const client = await pool.connect();
    try {
      const outcome = await inRequest(async () => {
        await client.query('BEGIN');
        await client.query('INSERT INTO gate_probe (id) VALUES (2)');
        await sleep(200); // the deadline (100 ms) passes while the transaction is open
        return client.query('COMMIT').then(() => 'committed', (error: unknown) => error);
      }, { deadlineMs: 100 });
      expect(isDeadlineExceeded(outcome)).toBe(true);
      expect((client as unknown as { getTransactionStatus(): string }).getTransactionStatus()).toBe('I');
    } finally {
      client.release();
    }
    expect(await landed(2)).toBe(false);
  });

  it('answers a COMMIT slower than its bound as unknown, and hands its connection to no one before it settled', async () => {
    const holder = await pool.connect();
    const pid = await pidOf(holder);
    const { commit, result } = runAttempt(async () => {
      await holder.query('BEGIN');
      await holder.query('INSERT INTO gate_probe (id, slow) VALUES (3, true)');
      return holder.query('COMMIT').then(() => 'committed', (error: unknown) => error);
    });
    expect(await result).toBeInstanceOf(CommitOutcomeUnknown);
    expect(commit.state).toMatchObject({ kind: 'in-doubt', stillRunning: true, backendPid: pid });
    holder.release(); // what Prisma does after a failed COMMIT
    const next = await pool.connect(); // the pool's one connection
    try {
      // Handed on only once its COMMIT answered: landed, and the same healthy connection.
      expect(commit.state).toEqual({ kind: 'landed' });
      expect(await pidOf(next)).toBe(pid);
    } finally {
      next.release();
    }
    expect(await landed(3)).toBe(true);
  });
});
