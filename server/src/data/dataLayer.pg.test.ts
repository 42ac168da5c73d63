/**
 * The data layer against a real PostgreSQL 15 primary with a real streaming replica:
 * whole-transaction reruns on a real deadlock and a real serialization failure, replica
 * reads, read-only connections, fallback to the primary, read-your-writes while the
 * replica lags, recovery after a restart, which lone statements are retried, and the
 * retry budget's cap during a sustained outage.
 */
import { randomUUID } from 'node:crypto';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig, type ServerConfig } from '../config.ts';
import { startPrimary, startReplica, type PgCluster } from '@tidewater/test-support/pgCluster';
import { inRequest, memoryLogger } from '../../test/support/inRequest.ts';
import { createDataLayer } from './createDataLayer.ts';
import type { DataLayer } from './dataLayer.ts';
import { openDatabase, type Database, databaseMarks } from './connections/index.ts';
import { exponential, retryBudget, classify } from './retry/index.ts';

/** The SQLSTATE under a Prisma error (adapter-pg keeps it at meta.driverAdapterError.cause.originalCode). */
const sqlStateOf = (error: unknown) =>
  (error as { meta?: { driverAdapterError?: { cause?: { originalCode?: string } } } }).meta?.driverAdapterError?.cause?.originalCode ?? String(error);
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('the data layer on PostgreSQL with a streaming replica', () => {
  let primary: PgCluster;
  let replica: PgCluster;
  let config: ServerConfig;
  let database: Database;
  let data: DataLayer;
  const log = memoryLogger();
  const opened: Database[] = [];

  async function open(overrides: Partial<ServerConfig> = {}, logger = log.logger): Promise<Database> {
    const db = await openDatabase({ ...config, ...overrides }, { logger });
    opened.push(db);
    return db;
  }

  async function sql(cluster: PgCluster, text: string, values: unknown[] = []) {
    const client = new pg.Client({ connectionString: cluster.urlFor('tidewater') });
    await client.connect();
    try {
      return (await client.query(text, values)).rows;
    } finally {
      await client.end();
    }
  }

  async function newAccount(balance: bigint): Promise<string> {
    const userId = randomUUID();
    const accountId = randomUUID();
    await database.prisma.user.create({
      data: { id: userId, email: `${userId}@example.com`, displayName: 'T', handle: `h${userId.slice(0, 18).replaceAll('-', '')}`, passwordHash: 'x', pinHash: 'y' },
    });
    await database.prisma.account.create({ data: { id: accountId, userId, name: 'A', balanceMinor: balance } });
    return accountId;
  }

  async function waitForReplica(predicate: () => Promise<boolean>, timeoutMs = 10_000) {
    const started = Date.now();
    while (!(await predicate())) {
      if (Date.now() - started > timeoutMs) throw new Error('the replica did not catch up');
      await sleep(50);
    }
  }

  beforeAll(async () => {
    primary = await startPrimary();
    config = {
      // A 200 ms readiness probe: back within one probe interval is back within 1 s.
      ...loadConfig({ DB_RETRY_BASE_DELAY_MS: '20', DB_RETRY_MAX_DELAY_MS: '200', DB_POOL_WAIT_MS: '2000', DB_CONNECT_TIMEOUT_MS: '2000', DB_COMMIT_TIMEOUT_MS: '2000', DB_READINESS_PROBE_MS: '200' }),
      databaseUrl: primary.urlFor('tidewater'),
    };
    database = await open();
    await database.migrate();
    replica = await startReplica(primary);
    data = createDataLayer({ database, config, logger: log.logger });
  }, 180_000);

  afterAll(async () => {
    for (const db of opened) await db.close().catch(() => {});
    await replica?.destroy();
    await primary?.destroy();
  });

  it('reruns both transfers of a real deadlock, and both land', async () => {
    const a = await newAccount(1_000n);
    const b = await newAccount(1_000n);
    const attempts = { ab: 0, ba: 0 };
    // Each locks its source, waits for the other to do the same, then takes the other's row.
    const transfer = (from: string, to: string, key: 'ab' | 'ba', amount: bigint) =>
      data.runInTransaction(async (tx) => {
        attempts[key] += 1;
        await tx.$executeRaw`UPDATE accounts SET balance_minor = balance_minor - ${amount} WHERE id = ${from}::uuid`;
        if (attempts[key] === 1) await sleep(300);
        await tx.$executeRaw`UPDATE accounts SET balance_minor = balance_minor + ${amount} WHERE id = ${to}::uuid`;
      });
    await Promise.all([transfer(a, b, 'ab', 10n), transfer(b, a, 'ba', 30n)]);
    const balances = await sql(primary, 'SELECT id::text, balance_minor::int AS b FROM accounts WHERE id = ANY($1::uuid[]) ORDER BY id', [[a, b]]);
    expect(Object.fromEntries(balances.map((r) => [r.id, r.b]))).toEqual({ [a]: 1_020, [b]: 980 });
    expect(attempts.ab + attempts.ba).toBe(3); // one of them was the deadlock victim and ran once more
    expect(log.lines.some((line) => line.code === '40P01' && line.msg === 'retrying after a temporary database failure')).toBe(true);
  });

  it('reruns a SERIALIZABLE conflict, and it lands', async () => {
    const a = await newAccount(100n);
    let runs = 0;
    const bump = () =>
      data.runInTransaction(
        async (tx) => {
          runs += 1;
          const [row] = await tx.$queryRaw<Array<{ b: bigint }>>`SELECT balance_minor AS b FROM accounts WHERE id = ${a}::uuid`;
          await sleep(200);
          await tx.$executeRaw`UPDATE accounts SET balance_minor = ${row!.b + 1n} WHERE id = ${a}::uuid`;
        },
        { isolationLevel: 'Serializable' },
      );
    await Promise.all([bump(), bump()]);
    const [row] = await sql(primary, 'SELECT balance_minor::int AS b FROM accounts WHERE id = $1', [a]);
    expect(row.b).toBe(102); // no lost update: the loser reran and read the winner's write
    expect(runs).toBe(3);
  });

  it('reads replicated data from the replica', async () => {
    const withReplica = await open({ databaseReplicaUrl: replica.urlFor('tidewater') });
    const layer = createDataLayer({ database: withReplica, config, logger: log.logger });
    const a = await newAccount(4_242n);
    await waitForReplica(async () => (await sql(replica, 'SELECT 1 FROM accounts WHERE id = $1', [a])).length === 1);
    const read = await inRequest(() => layer.readDb().account.findUnique({ where: { id: a } }));
    expect(read?.balanceMinor).toBe(4_242n);
    const [where] = await inRequest(() => layer.readDb().$queryRaw<Array<{ standby: boolean }>>`SELECT pg_is_in_recovery() AS standby`);
    expect(where!.standby).toBe(true);
  });

  it('refuses a write on a read-only connection, on the replica and on the primary', async () => {
    const withReplica = await open({ databaseReplicaUrl: replica.urlFor('tidewater') });
    const onReplica = await withReplica.readOnlyPrisma.$executeRaw`UPDATE accounts SET name = name`.catch((e: unknown) => e);
    const onPrimary = await database.readOnlyPrisma.$executeRaw`UPDATE accounts SET name = name`.catch((e: unknown) => e);
    for (const error of [onReplica, onPrimary]) {
      expect(String((error as Error).message)).toMatch(/read-only transaction/);
      expect((error as { meta?: { driverAdapterError?: { cause?: { originalCode?: string } } } }).meta?.driverAdapterError?.cause?.originalCode).toBe('25006');
    }
  });

  it('keeps its read-only connections read-only when the URLs carry their own options=', async () => {
    // libpq's options= in a URL is the operator's (search_path, a statement timeout): it must not replace ours.
    const withOptions = (url: string) => `${url}${url.includes('?') ? '&' : '?'}options=${encodeURIComponent('-c search_path=public')}`;
    const db = await open({ databaseUrl: withOptions(primary.urlFor('tidewater')), databaseReplicaUrl: withOptions(replica.urlFor('tidewater')) });
    for (const readOnly of [db.readOnlyPrisma, db.primaryReadOnlyPrisma]) {
      const refused = await readOnly.$executeRaw`UPDATE accounts SET name = name WHERE false`.then(() => 'written', (e: unknown) => sqlStateOf(e));
      expect(refused).toBe('25006');
      const [path] = await readOnly.$queryRaw<Array<{ search_path: string }>>`SHOW search_path`;
      expect(path!.search_path).toBe('public'); // and the operator's options still apply
    }
  });

  it('refuses a write through readDb() in every routing case (25006)', async () => {
    const withReplica = await open({ databaseReplicaUrl: replica.urlFor('tidewater') });
    const noReplica = createDataLayer({ database, config, logger: log.logger });
    const replicated = createDataLayer({ database: withReplica, config, logger: log.logger });
    const userId = randomUUID();
    const writeThroughReadDb = (layer: DataLayer) =>
      layer.readDb().$executeRaw`UPDATE accounts SET name = name WHERE false`.then(() => 'written', (e: unknown) => sqlStateOf(e));
    const cases = await inRequest(async () => ({
      'the primary, no replica': await writeThroughReadDb(noReplica),
      'the replica': await (async () => (await replicated.beginRequest(userId), writeThroughReadDb(replicated)))(),
      'after a write in the same request': await (async () => {
        await replicated.write((db) => db.$executeRaw`SELECT 1`);
        expect(replicated.readConnection()).toMatchObject({ isReadOnly: true, isReadReplica: false, hasWrites: true });
        return writeThroughReadDb(replicated);
      })(),
    }));
    await sleep(100); // the read-your-writes mark is written after the write
    const inTheWindow = await inRequest(async () => {
      await replicated.beginRequest(userId);
      expect(replicated.readConnection()).toMatchObject({ isReadOnly: true, isReadReplica: false, hasWrites: false });
      return writeThroughReadDb(replicated);
    });
    expect({ ...cases, 'in the read-your-writes window': inTheWindow }).toEqual({
      'the primary, no replica': '25006',
      'the replica': '25006',
      'after a write in the same request': '25006',
      'in the read-your-writes window': '25006',
    });
  });

  it('falls back to the primary with one warning when the replica is down', async () => {
    const fallbackLog = memoryLogger();
    const withFallback = await open({ databaseReplicaUrl: replica.urlFor('tidewater'), replicaFallbackToPrimary: true }, fallbackLog.logger);
    const layer = createDataLayer({ database: withFallback, config, logger: fallbackLog.logger });
    await replica.stop();
    try {
      for (let i = 0; i < 3; i++) {
        const [where] = await inRequest(() => layer.readDb().$queryRaw<Array<{ standby: boolean }>>`SELECT pg_is_in_recovery() AS standby`);
        expect(where!.standby).toBe(false);
      }
      const warnings = fallbackLog.lines.filter((line) => line.msg === 'the read replica cannot be reached; reading from the primary');
      expect(warnings).toHaveLength(1);
    } finally {
      await replica.start();
    }
  });

  it('reads a write in the next request within 5 s although the replica lags', async () => {
    const withReplica = await open({ databaseReplicaUrl: replica.urlFor('tidewater') });
    const layer = createDataLayer({ database: withReplica, config, logger: log.logger });
    const a = await newAccount(1n);
    const userId = randomUUID();
    await waitForReplica(async () => (await sql(replica, 'SELECT 1 FROM accounts WHERE id = $1', [a])).length === 1);
    await sql(replica, 'SELECT pg_wal_replay_pause()'); // the replica lags from here on
    try {
      await inRequest(async () => {
        await layer.beginRequest(userId);
        expect(layer.readConnection()).toMatchObject({ isReadOnly: true, isReadReplica: true, hasWrites: false });
        await layer.write((db) => db.account.update({ where: { id: a }, data: { name: 'renamed' } }));
        expect(layer.readConnection()).toMatchObject({ isReadOnly: true, isReadReplica: false, hasWrites: true });
        expect((await layer.readDb().account.findUnique({ where: { id: a } }))?.name).toBe('renamed'); // same request
      });
      const nextRequest = await inRequest(async () => {
        await layer.beginRequest(userId);
        return layer.readDb().account.findUnique({ where: { id: a } });
      });
      expect(nextRequest?.name).toBe('renamed');
      // Another user, who wrote nothing, reads the lagging replica: proof that it lags.
      const stranger = await inRequest(async () => {
        await layer.beginRequest(randomUUID());
        return layer.readDb().account.findUnique({ where: { id: a } });
      });
      expect(stranger?.name).toBe('A');
    } finally {
      await sql(replica, 'SELECT pg_wal_replay_resume()');
    }
  });

  it('shares read-your-writes marks between API processes through the database', async () => {
    const withReplica = await open({ databaseReplicaUrl: replica.urlFor('tidewater') });
    const shared = { ...config, readYourWritesStore: 'database' };
    const first = createDataLayer({ database: withReplica, config: shared, logger: log.logger, marks: databaseMarks(withReplica.primaryStatements) });
    const second = createDataLayer({ database: withReplica, config: shared, logger: log.logger, marks: databaseMarks(withReplica.primaryStatements) });
    const userId = randomUUID();
    await inRequest(async () => {
      await first.beginRequest(userId);
      await first.write((db) => db.$executeRaw`SELECT 1`);
    });
    await sleep(100); // the mark is written after the write, without holding the request
    const onSecond = await inRequest(async () => {
      await second.beginRequest(userId);
      return second.readConnection();
    });
    expect(onSecond).toMatchObject({ isReadReplica: false, isReadOnly: true });
  });

  it('fails fast while the database is down and works within 1 s of it coming back', async () => {
    const fresh = await open();
    const layer = createDataLayer({ database: fresh, config, logger: log.logger, policy: exponential({ maxRetries: 1, delayMs: 20, budget: retryBudget() }) });
    expect(await layer.read((db) => db.account.count())).toBeGreaterThanOrEqual(0); // pool holds live connections
    await primary.stop();
    try {
      const started = Date.now();
      const error = await layer.read((db) => db.account.count()).then(() => undefined, (e: unknown) => e);
      expect(Date.now() - started).toBeLessThan(3_000);
      expect(classify(error)?.kind).toMatch(/connection|adminShutdown|cannotConnectNow/);
    } finally {
      await primary.start();
    }
    const back = Date.now();
    let works = false;
    while (!works && Date.now() - back < 1_000) {
      works = await layer.read((db) => db.account.count()).then(() => true, () => false);
    }
    expect(works).toBe(true);
    expect(Date.now() - back).toBeLessThan(1_000);
  });

  it('retries a SELECT whose connection dropped, but not an INSERT', async () => {
    const killOwnBackendSoon = async (marker: string) => {
      for (let i = 0; i < 50; i++) {
        const rows = await sql(primary, `SELECT pg_terminate_backend(pid) AS killed FROM pg_stat_activity WHERE query LIKE $1 AND pid <> pg_backend_pid()`, [`%${marker}%`]);
        if (rows.some((row) => row.killed)) return;
        await sleep(20);
      }
      throw new Error('never saw the statement to drop');
    };
    let selects = 0;
    const markerSelect = `sel_${randomUUID().slice(0, 8)}`;
    const select = data.read(async (db) => {
      selects += 1;
      return db.$queryRawUnsafe(`SELECT 1 AS one, '${markerSelect}' AS marker FROM pg_sleep(${selects === 1 ? 1 : 0})`);
    });
    await killOwnBackendSoon(markerSelect);
    await select;
    expect(selects).toBe(2);

    let inserts = 0;
    const markerInsert = `ins_${randomUUID().slice(0, 8)}`;
    const insert = data
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
    const marker = `rdb_${randomUUID().slice(0, 8)}`;
    let runs = 0;
    const read = inRequest(() => {
      runs += 1;
      return data.readDb().$queryRawUnsafe(`SELECT 1 AS one, '${marker}' AS marker FROM pg_sleep(1)`);
    });
    for (let i = 0; i < 50; i++) {
      const rows = await sql(primary, `SELECT pg_terminate_backend(pid) AS killed FROM pg_stat_activity WHERE query LIKE $1 AND pid <> pg_backend_pid()`, [`%${marker}%`]);
      if (rows.some((row) => row.killed)) break;
      await sleep(20);
    }
    await expect(read).resolves.toEqual([{ one: 1, marker }]);
    expect(runs).toBe(1); // one call of ours; the retry happened inside readDb()'s client
    expect(log.lines.some((line) => line.code === '57P01' && line.msg === 'retrying after a temporary database failure')).toBe(true);
  });

  it('bridges an outage inside a request: the read waits for the database, holding no connection, and answers once it is back', async () => {
    const fresh = await open();
    const budget = retryBudget({ capacity: 10, perSecond: 0, perSuccess: 0 });
    const layer = createDataLayer({ database: fresh, config, logger: log.logger, policy: exponential({ maxRetries: 4, delayMs: 20, budget }) });
    expect(await layer.read((db) => db.account.count())).toBeGreaterThanOrEqual(0);
    await primary.stop();
    const started = Date.now();
    let startedAgainAt = 0;
    const read = inRequest(() => layer.read((db) => db.account.count()), { deadlineMs: 10_000 });
    try {
      await sleep(1_500);
      expect(fresh.gates[0]!.state()).toMatchObject({ open: false, waiters: 1 });
    } finally {
      await primary.start();
      startedAgainAt = Date.now();
    }
    await expect(read).resolves.toBeGreaterThanOrEqual(0);
    const answeredAt = Date.now();
    expect(answeredAt - started).toBeGreaterThanOrEqual(1_500);
    expect(answeredAt - startedAgainAt).toBeLessThan(200 + 700); // one probe interval, a login, the read
    expect(budget.state().spent).toBeLessThanOrEqual(1); // at most the failure that met the outage first
    expect(fresh.gates[0]!.state().probes).toBeLessThanOrEqual(Math.ceil((answeredAt - started) / 200) + 1);
  });

  it("logs a request held by the circuit breaker at warn with the database's failure, not the breaker's own code", async () => {
    const fresh = await open();
    const layer = createDataLayer({ database: fresh, config, logger: log.logger });
    expect(await layer.read((db) => db.account.count())).toBeGreaterThanOrEqual(0);
    const requestLog = memoryLogger();
    await primary.stop();
    const read = inRequest(() => layer.read((db) => db.account.count()), { deadlineMs: 10_000, logger: requestLog.logger });
    try {
      await sleep(1_000);
    } finally {
      await primary.start();
    }
    await expect(read).resolves.toBeGreaterThanOrEqual(0);
    const held = requestLog.lines.filter((line) => line.msg === 'waiting for the database to answer again');
    expect(held.length).toBeGreaterThanOrEqual(1);
    for (const line of held) {
      expect(line.level).toBe(40);
      expect(line.code).toMatch(/^(ECONNREFUSED|57P0[1-3])$/);
    }
  });

  it('ends the bridge at the deadline: a read during a long outage fails with the deadline, not before', async () => {
    const fresh = await open();
    const layer = createDataLayer({ database: fresh, config, logger: log.logger, policy: exponential({ maxRetries: 4, delayMs: 20, budget: retryBudget() }) });
    await primary.stop();
    try {
      const started = Date.now();
      const error = await inRequest(() => layer.read((db) => db.account.count()), { deadlineMs: 1_000 }).then(() => undefined, (e: unknown) => e);
      expect((error as Error).name).toBe('DeadlineExceeded');
      expect(Date.now() - started).toBeGreaterThanOrEqual(950);
      expect(Date.now() - started).toBeLessThan(1_500);
    } finally {
      await primary.start();
    }
  });

  it('answers a pool-wait timeout after one pool wait: waiting for a pooled connection is not retried', async () => {
    const small = { ...config, dbPoolMax: 1, dbPoolWaitMs: 300, dbConnectTimeoutMs: 2_000 };
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

  it('caps total retries with the budget during a sustained outage', async () => {
    const fresh = await open();
    const budget = retryBudget({ capacity: 5, perSecond: 0, perSuccess: 0 });
    const layer = createDataLayer({ database: fresh, config, logger: log.logger, policy: exponential({ maxRetries: 4, delayMs: 5, maxDelayMs: 20, budget }) });
    let attempts = 0;
    await primary.stop();
    try {
      for (let i = 0; i < 20; i++) {
        await layer.read(async (db) => {
          attempts += 1;
          return db.account.count();
        }).catch(() => undefined);
      }
    } finally {
      await primary.start();
    }
    // 20 reads × 5 attempts would be 100 without the budget: 20 first attempts + 5 retries.
    // The first read spends 4 tokens, the second 1 and is refused its next; 18 more are refused at once.
    expect(attempts).toBe(25);
    expect(budget.state()).toMatchObject({ spent: 5, refused: 19 });
    const started = Date.now();
    await layer.read(() => Promise.reject(Object.assign(new Error('refused'), { code: 'ECONNREFUSED' }))).catch(() => undefined);
    expect(Date.now() - started).toBeLessThan(100); // spent budget: the first failure is final at once
  });
});
