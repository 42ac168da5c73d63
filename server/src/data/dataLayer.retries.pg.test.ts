/**
 * Which failures the data layer runs again, against a real PostgreSQL 15 primary: both
 * transfers of a real deadlock and a real serialization failure are rerun whole and land;
 * a SELECT whose connection dropped is retried, an INSERT is not; a read through readDb()
 * is retried inside its client; a pool-wait timeout answers after one wait, not retried.
 */
import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { dataLayerOnPostgres, sql } from '../../test/support/dataLayerOnPostgres.ts';
import { inRequest } from '../../test/support/inRequest.ts';
import { createDataLayer } from './createDataLayer.ts';
import { classify } from './retry/index.ts';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('the data layer on PostgreSQL retries', () => {
  const setup = dataLayerOnPostgres({ replica: false });
  const { log, open, newAccount } = setup;

  it('reruns both transfers of a real deadlock, and both land', async () => {
    const a = await newAccount(1_000n);
    const b = await newAccount(1_000n);
    const attempts = { ab: 0, ba: 0 };
    // Each locks its source, waits for the other to do the same, then takes the other's row.
    const transfer = (from: string, to: string, key: 'ab' | 'ba', amount: bigint) =>
      setup.data.runInTransaction(async (tx) => {
        attempts[key] += 1;
        await tx.$executeRaw`UPDATE accounts SET balance_minor = balance_minor - ${amount} WHERE id = ${from}::uuid`;
        if (attempts[key] === 1) await sleep(300);
        await tx.$executeRaw`UPDATE accounts SET balance_minor = balance_minor + ${amount} WHERE id = ${to}::uuid`;
      });
    await Promise.all([transfer(a, b, 'ab', 10n), transfer(b, a, 'ba', 30n)]);
    const balances = await sql(setup.primary, 'SELECT id::text, balance_minor::int AS b FROM accounts WHERE id = ANY($1::uuid[]) ORDER BY id', [[a, b]]);
    expect(Object.fromEntries(balances.map((r) => [r.id, r.b]))).toEqual({ [a]: 1_020, [b]: 980 });
    expect(attempts.ab + attempts.ba).toBe(3); // one of them was the deadlock victim and ran once more
    expect(log.lines.some((line) => line.code === '40P01' && line.msg === 'retrying after a temporary database failure')).toBe(true);
  });

  it('reruns a SERIALIZABLE conflict, and it lands', async () => {
    const a = await newAccount(100n);
    let runs = 0;
    const bump = () =>
      setup.data.runInTransaction(
        async (tx) => {
          runs += 1;
          const [row] = await tx.$queryRaw<Array<{ b: bigint }>>`SELECT balance_minor AS b FROM accounts WHERE id = ${a}::uuid`;
          await sleep(200);
          await tx.$executeRaw`UPDATE accounts SET balance_minor = ${row!.b + 1n} WHERE id = ${a}::uuid`;
        },
        { isolationLevel: 'Serializable' },
      );
    await Promise.all([bump(), bump()]);
    const [row] = await sql(setup.primary, 'SELECT balance_minor::int AS b FROM accounts WHERE id = $1', [a]);
    expect(row.b).toBe(102); // no lost update: the loser reran and read the winner's write
    expect(runs).toBe(3);
  });

  it('retries a SELECT whose connection dropped, but not an INSERT', async () => {
    const killOwnBackendSoon = async (marker: string) => {
      for (let i = 0; i < 50; i++) {
        const rows = await sql(setup.primary, `SELECT pg_terminate_backend(pid) AS killed FROM pg_stat_activity WHERE query LIKE $1 AND pid <> pg_backend_pid()`, [`%${marker}%`]);
        if (rows.some((row) => row.killed)) return;
        await sleep(20);
      }
      throw new Error('never saw the statement to drop');
    };
    let selects = 0;
    const markerSelect = `sel_${randomUUID().slice(0, 8)}`;
    const select = setup.data.read(async (db) => {
      selects += 1;
      return db.$queryRawUnsafe(`SELECT 1 AS one, '${markerSelect}' AS marker FROM pg_sleep(${selects === 1 ? 1 : 0})`);
    });
    await killOwnBackendSoon(markerSelect);
    await select;
    expect(selects).toBe(2);

    let inserts = 0;
    const markerInsert = `ins_${randomUUID().slice(0, 8)}`;
    const insert = setup.data
      .write(async (db) => {
        inserts += 1;
        return db.$executeRawUnsafe(`INSERT INTO read_your_writes_marks SELECT gen_random_uuid(), now() FROM pg_sleep(1) WHERE '${markerInsert}' <> ''`);
      })
      .then(() => undefined, (e: unknown) => e);
    await killOwnBackendSoon(markerInsert);
    const error = await insert;
    expect(error).toBeDefined();
    expect(classify(error)?.confirmedNotApplied).toBe(false);
    expect(inserts).toBe(1);
  });

  it('retries a read through readDb() when its connection dropped', async () => {
    const marker = 'rdb_read_retried';
    let runs = 0;
    const read = inRequest(() => {
      runs += 1;
      return setup.data.readDb().$queryRaw`SELECT 1 AS one, 'rdb_read_retried' AS marker FROM pg_sleep(1)`;
    });
    for (let i = 0; i < 50; i++) {
      const rows = await sql(setup.primary, `SELECT pg_terminate_backend(pid) AS killed FROM pg_stat_activity WHERE query LIKE $1 AND pid <> pg_backend_pid()`, [`%${marker}%`]);
      if (rows.some((row) => row.killed)) break;
      await sleep(20);
    }
    await expect(read).resolves.toEqual([{ one: 1, marker }]);
    expect(runs).toBe(1); // one call of ours; the retry happened inside readDb()'s statements
    expect(log.lines.some((line) => line.code === '57P01' && line.msg === 'retrying after a temporary database failure')).toBe(true);
  });

  it('answers a pool-wait timeout after one pool wait: waiting for a pooled connection is not retried', async () => {
    const small = { ...setup.config, dbPoolMax: 1, dbPoolWaitMs: 300, dbConnectTimeoutMs: 2_000 };
    const layer = createDataLayer({ database: await open(small), config: small, logger: log.logger });
    let release = () => {};
    const held = new Promise<void>((resolve) => (release = resolve));
    let holding = () => {};
    const holds = new Promise<void>((resolve) => (holding = resolve));
    const holder = layer.runInTransaction(async (tx) => {
      await tx.$executeRaw`SELECT 1`;
      holding();
      await held; // the pool's one connection stays checked out
    });
    await holds;
    let attempts = 0;
    const started = Date.now();
    const error = await inRequest(
      () => layer.write(async (db) => {
        attempts += 1;
        return db.$executeRaw`SELECT 1`;
      }),
      { deadlineMs: 10_000 },
    ).then(() => undefined, (e: unknown) => e);
    const tookMs = Date.now() - started;
    release();
    await holder;
    expect(classify(error)).toMatchObject({ kind: 'poolTimeout', retryable: false });
    expect(attempts).toBe(1);
    expect(tookMs).toBeLessThan(300 + 600); // one pool wait, not five and their back-offs
  });
});
