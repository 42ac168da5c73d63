/**
 * The proxy against a real throwaway PostgreSQL: it forwards, resets a connection in the
 * middle of a transaction (and knows it did), swallows everything as a blackhole, resets
 * every live connection on demand, loses exactly the message a rule names, and starts a
 * partition at the statement a rule names.
 */
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startPrimary, type PgCluster } from './pgCluster.ts';
import { startTcpProxy, type TcpProxy } from './tcpProxy.ts';

let cluster: PgCluster;
let proxy: TcpProxy;
const clients: pg.Client[] = [];

async function connect(connectionTimeoutMillis = 2_000): Promise<pg.Client> {
  const client = new pg.Client({ connectionString: proxy.urlFor(cluster.urlFor('tidewater')), connectionTimeoutMillis });
  client.on('error', () => {}); // a reset is the point of these tests
  clients.push(client);
  await client.connect();
  return client;
}

/** A client straight to the database (not through the proxy), with `table (note text)` made. */
async function directWith(table: string): Promise<pg.Client> {
  const direct = new pg.Client(cluster.urlFor('tidewater'));
  clients.push(direct);
  await direct.connect();
  await direct.query(`CREATE TABLE IF NOT EXISTS ${table} (note text)`);
  return direct;
}

beforeAll(async () => {
  cluster = await startPrimary();
  proxy = await startTcpProxy({ host: '127.0.0.1', port: cluster.port });
});

afterAll(async () => {
  await Promise.all(clients.map((c) => c.end().catch(() => {})));
  await proxy?.close();
  await cluster?.destroy();
});

describe('tcpProxy', () => {
  it('forwards both ways in pass mode', async () => {
    const client = await connect();
    expect((await client.query('SELECT 41 + 1 AS answer')).rows).toEqual([{ answer: 42 }]);
  });

  it('resets a transaction at its first statement after BEGIN (afterBytes 12), and counts it as mid-transaction', async () => {
    const client = await connect();
    const before = proxy.stats();
    proxy.mode('reset-after-bytes', { afterBytes: 12 });
    await client.query('BEGIN'); // 11 bytes: passes
    await expect(client.query('SELECT 1')).rejects.toThrow(/Connection terminated|ECONNRESET|read ECONNRESET/);
    expect(proxy.stats().resets - before.resets).toBe(1);
    expect(proxy.stats().resetsInTransaction - before.resetsInTransaction).toBe(1);
  });

  it('lets a new connection log in, then resets its first statement', async () => {
    const client = await connect();
    const before = proxy.stats();
    await expect(client.query('SELECT pg_backend_pid()')).rejects.toThrow();
    expect(proxy.stats().resets - before.resets).toBe(1);
    expect(proxy.stats().resetsInTransaction).toBe(before.resetsInTransaction);
    proxy.mode('pass');
  });

  it('swallows everything as a blackhole, and resets what it swallowed when it leaves', async () => {
    const liveBefore = proxy.stats().live;
    proxy.mode('blackhole');
    await expect(connect(300)).rejects.toThrow(/timeout/i);
    proxy.mode('pass');
    expect(proxy.stats().live).toBe(liveBefore);
    const client = await connect();
    expect((await client.query('SELECT 1 AS one')).rows).toEqual([{ one: 1 }]);
  });

  it('resets once at an offset and passes again (once)', async () => {
    const [first, second] = [await connect(), await connect()];
    const before = proxy.stats();
    proxy.mode('reset-after-bytes', { afterBytes: 5, once: true });
    await expect(first.query('SELECT 1')).rejects.toThrow();
    expect((await second.query('SELECT 2 AS two')).rows).toEqual([{ two: 2 }]);
    expect((await (await connect()).query('SELECT 3 AS three')).rows).toEqual([{ three: 3 }]);
    expect(proxy.stats().resets - before.resets).toBe(1);
  });

  it('resets every live connection on resetAll()', async () => {
    const [a, b] = [await connect(), await connect()];
    expect(proxy.resetAll()).toBeGreaterThanOrEqual(2);
    await expect(a.query('SELECT 1')).rejects.toThrow();
    await expect(b.query('SELECT 1')).rejects.toThrow();
  });

  it('cutBefore: the named statement never reaches the database; the rule fires as often as armed', async () => {
    const direct = await directWith('proxied');
    const fired = proxy.arm('cutBefore', 'INSERT INTO proxied', 1);
    const client = await connect();
    await expect(client.query("INSERT INTO proxied VALUES ('cut')")).rejects.toThrow();
    expect(fired()).toBe(1);
    const again = await connect();
    await again.query("INSERT INTO proxied VALUES ('through')");
    expect(fired()).toBe(1);
    expect((await direct.query('SELECT note FROM proxied ORDER BY note')).rows).toEqual([{ note: 'through' }]);
    proxy.disarm();
  });

  it('matches a prepared statement by its text on every run, though its text goes by only at the first', async () => {
    const direct = await directWith('prepared_runs');
    const client = await connect();
    const insert = (note: string) => client.query({ name: 'tw_probe', text: 'INSERT INTO prepared_runs VALUES ($1::text)', values: [note] });
    await insert('first');
    const fired = proxy.arm('cutBefore', 'INSERT INTO prepared_runs', 1);
    await expect(insert('second')).rejects.toThrow();
    expect(fired()).toBe(1);
    expect((await direct.query('SELECT note FROM prepared_runs')).rows).toEqual([{ note: 'first' }]);
    proxy.disarm();
  });

  it('dropAnswerTo: the database acts on the named statement, its answer is lost', async () => {
    const direct = await directWith('answered');
    const fired = proxy.arm('dropAnswerTo', 'INSERT INTO answered');
    const client = await connect();
    await expect(client.query("INSERT INTO answered VALUES ('landed')")).rejects.toThrow();
    expect(fired()).toBe(1);
    expect((await direct.query('SELECT note FROM answered')).rows).toEqual([{ note: 'landed' }]);
    proxy.disarm();
    const after = await connect();
    expect((await after.query('SELECT count(*)::int AS n FROM answered')).rows).toEqual([{ n: 1 }]);
  });

  it('partitionBefore: from the named statement on, nothing passes until another mode; the statement never reached the database', async () => {
    const direct = await directWith('partitioned_before');
    const client = await connect();
    const fired = proxy.arm('partitionBefore', 'INSERT INTO partitioned_before');
    const sent = client.query("INSERT INTO partitioned_before VALUES ('swallowed')");
    sent.catch(() => {});
    await expect(connect(300)).rejects.toThrow(/timeout/i);
    expect(fired()).toBe(1);
    proxy.mode('pass');
    await expect(sent).rejects.toThrow();
    expect((await direct.query('SELECT count(*)::int AS n FROM partitioned_before')).rows).toEqual([{ n: 0 }]);
    proxy.disarm();
  });

  it('partitionAfter: the database acts on the named statement, and no answer comes until another mode', async () => {
    const direct = await directWith('partitioned_after');
    const client = await connect();
    const fired = proxy.arm('partitionAfter', 'INSERT INTO partitioned_after');
    const sent = client.query("INSERT INTO partitioned_after VALUES ('landed')");
    sent.catch(() => {});
    await expect.poll(async () => (await direct.query('SELECT count(*)::int AS n FROM partitioned_after')).rows[0].n, { timeout: 10_000 }).toBe(1);
    expect(fired()).toBe(1);
    await expect(connect(300)).rejects.toThrow(/timeout/i);
    proxy.mode('pass');
    await expect(sent).rejects.toThrow();
    proxy.disarm();
  });

  it('cutAfter: the client loses its connection at once, while the database goes on and commits the named statement', async () => {
    const direct = await directWith('committed_late');
    const fired = proxy.arm('cutAfter', 'pg_sleep');
    const client = await connect();
    const startedAt = performance.now();
    // One statement, so one implicit transaction: it commits after the sleep, long after the cut.
    await expect(client.query("INSERT INTO committed_late SELECT 'late' FROM pg_sleep(2)")).rejects.toThrow();
    const lostAfterMs = performance.now() - startedAt;
    expect(fired()).toBe(1);
    expect(lostAfterMs).toBeLessThan(1_500);
    expect((await direct.query('SELECT count(*)::int AS n FROM committed_late')).rows).toEqual([{ n: 0 }]);
    await expect.poll(async () => (await direct.query('SELECT count(*)::int AS n FROM committed_late')).rows[0].n, { timeout: 10_000 }).toBe(1);
    proxy.disarm();
  });
});
