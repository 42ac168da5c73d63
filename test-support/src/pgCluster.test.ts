import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { startPrimary, startReplica, type PgCluster } from './pgCluster.ts';
import { pgBinaries } from './pgBinaries.ts';
import { processState } from './pgProcesses.ts';

/** One statement on a fresh connection; both the connect and the query give up after `timeoutMs`. */
async function query<Row extends object>(url: string, sql: string, timeoutMs = 10_000): Promise<Row[]> {
  const client = new pg.Client({
    connectionString: url,
    connectionTimeoutMillis: timeoutMs,
    query_timeout: timeoutMs,
  });
  client.on('error', () => undefined); // a dropped connection also rejects the query
  try {
    await client.connect();
    return (await client.query<Row>(sql)).rows;
  } finally {
    void client.end().catch(() => undefined); // not awaited: ending waits for a hung server
  }
}

describe('pgCluster', () => {
  let primary: PgCluster;
  let replica: PgCluster | undefined;

  beforeAll(async () => {
    primary = await startPrimary();
  });
  afterAll(async () => {
    await replica?.destroy();
    await primary?.destroy();
  });

  it('starts a primary with a tidewater database on its own port', async () => {
    expect(primary.url).toBe(`postgres://postgres@127.0.0.1:${primary.port}/postgres`);
    expect(await query(primary.urlFor('tidewater'), 'SELECT current_database() AS db')).toEqual([
      { db: 'tidewater' },
    ]);
    expect(await query(primary.url, 'SELECT pg_is_in_recovery() AS r')).toEqual([{ r: false }]);
  });

  it('runs the PostgreSQL of the binaries pgBinaries found (the machine\'s or npm\'s)', async () => {
    const binaries = execFileSync(join(pgBinaries().dir, 'postgres'), ['--version'], { encoding: 'utf8' });
    const [row] = await query<{ v: string }>(primary.url, "SELECT current_setting('server_version') AS v");
    expect(binaries.trim()).toBe(`postgres (PostgreSQL) ${row!.v}`);
  });

  it('starts a streaming replica that sees rows written on the primary', async () => {
    replica = await startReplica(primary);
    expect(replica.port).not.toBe(primary.port);
    expect(await query(replica.url, 'SELECT pg_is_in_recovery() AS r')).toEqual([{ r: true }]);
    await query(
      primary.urlFor('tidewater'),
      "CREATE TABLE seen (note text); INSERT INTO seen VALUES ('hello')",
    );
    const read = () => query(replica!.urlFor('tidewater'), 'SELECT note FROM seen');
    await vi.waitFor(async () => expect(await read()).toEqual([{ note: 'hello' }]), {
      timeout: 20_000,
      interval: 100,
    });
  });

  it('pause() stops every process, so a query with a 1 s client timeout times out; resume() heals it', async () => {
    const client = new pg.Client({ connectionString: primary.url, query_timeout: 1_000 });
    client.on('error', () => undefined);
    await client.connect();
    await primary.pause();
    try {
      expect(primary.pids().length).toBeGreaterThan(1);
      expect(primary.pids().map(processState)).toEqual(primary.pids().map(() => 'T'));
      const started = Date.now();
      await expect(client.query('SELECT 1')).rejects.toThrow('Query read timeout');
      expect(Date.now() - started).toBeGreaterThanOrEqual(900);
      await expect(query(primary.url, 'SELECT 1', 1_000)).rejects.toThrow(/timeout/);
    } finally {
      await primary.resume();
    }
    expect(primary.pids().map(processState)).not.toContain('T');
    expect(await query(primary.url, 'SELECT 1 AS one')).toEqual([{ one: 1 }]);
    await client.end();
  });

  it('stop() refuses connections and start() serves again on the same port', async () => {
    await primary.stop();
    expect(primary.pids()).toEqual([]);
    await expect(query(primary.url, 'SELECT 1')).rejects.toMatchObject({ code: 'ECONNREFUSED' });
    await primary.start();
    expect(await query(primary.urlFor('tidewater'), 'SELECT count(*)::int AS n FROM seen')).toEqual([
      { n: 1 },
    ]);
  });

  it('destroy() stops the server and deletes its files', async () => {
    const { dir } = replica!;
    await replica!.destroy();
    replica = undefined;
    expect(existsSync(dir)).toBe(false);
  });
});
