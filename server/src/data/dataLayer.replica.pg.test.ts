/**
 * The data layer against a real PostgreSQL 15 primary with a real streaming replica: reads
 * from the replica, read-only connections that refuse a write on either server and in every
 * routing case (even with the operator's own options= in the URLs), fallback to the primary
 * when the replica is down, read-your-writes while the replica lags, and read-your-writes
 * marks shared between API processes through the database.
 */
import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { dataLayerOnPostgres, sql } from '../../test/support/dataLayerOnPostgres.ts';
import { inRequest, memoryLogger } from '../../test/support/inRequest.ts';
import { createDataLayer } from './createDataLayer.ts';
import type { DataLayer } from './dataLayer.ts';
import { databaseMarks } from './connections/index.ts';

/** The SQLSTATE under a Prisma error or a direct statement's adapter error (`cause.originalCode`). */
const sqlStateOf = (error: unknown) => {
  const shaped = error as { meta?: { driverAdapterError?: { cause?: { originalCode?: string } } }; cause?: { originalCode?: string } };
  return shaped.meta?.driverAdapterError?.cause?.originalCode ?? shaped.cause?.originalCode ?? String(error);
};
/** An account's name as `readDb()` reads it. */
const nameOf = async (layer: DataLayer, id: string) =>
  (await layer.readDb().$queryRaw<{ name: string }[]>`SELECT name FROM accounts WHERE id = ${id}::uuid`)[0]?.name;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function waitForReplica(predicate: () => Promise<boolean>, timeoutMs = 10_000) {
  const started = Date.now();
  while (!(await predicate())) {
    if (Date.now() - started > timeoutMs) throw new Error('the replica did not catch up');
    await sleep(50);
  }
}

describe('the data layer on PostgreSQL with a streaming replica', () => {
  const setup = dataLayerOnPostgres({ replica: true });
  const { log, open, newAccount } = setup;

  it('reads replicated data from the replica', async () => {
    const withReplica = await open({ databaseReplicaUrl: setup.replica.urlFor('tidewater') });
    const layer = createDataLayer({ database: withReplica, config: setup.config, logger: log.logger });
    const a = await newAccount(4_242n);
    await waitForReplica(async () => (await sql(setup.replica, 'SELECT 1 FROM accounts WHERE id = $1', [a])).length === 1);
    const [read] = await inRequest(() => layer.readDb().$queryRaw<{ balanceMinor: string }[]>`SELECT balance_minor::text AS "balanceMinor" FROM accounts WHERE id = ${a}::uuid`);
    expect(read?.balanceMinor).toBe('4242');
    const [where] = await inRequest(() => layer.readDb().$queryRaw<{ standby: boolean }[]>`SELECT pg_is_in_recovery() AS standby`);
    expect(where!.standby).toBe(true);
  });

  it('refuses a write on a read-only connection, on the replica and on the primary', async () => {
    const withReplica = await open({ databaseReplicaUrl: setup.replica.urlFor('tidewater') });
    const onReplica = await withReplica.readOnlyPrisma.$executeRaw`UPDATE accounts SET name = name`.catch((e: unknown) => e);
    const onPrimary = await setup.database.readOnlyPrisma.$executeRaw`UPDATE accounts SET name = name`.catch((e: unknown) => e);
    for (const error of [onReplica, onPrimary]) {
      expect(String((error as Error).message)).toMatch(/read-only transaction/);
      expect((error as { meta?: { driverAdapterError?: { cause?: { originalCode?: string } } } }).meta?.driverAdapterError?.cause?.originalCode).toBe('25006');
    }
  });

  it('keeps its read-only connections read-only when the URLs carry their own options=', async () => {
    // libpq's options= in a URL is the operator's (search_path, a statement timeout): it must not replace ours.
    const withOptions = (url: string) => `${url}${url.includes('?') ? '&' : '?'}options=${encodeURIComponent('-c search_path=public')}`;
    const db = await open({ databaseUrl: withOptions(setup.primary.urlFor('tidewater')), databaseReplicaUrl: withOptions(setup.replica.urlFor('tidewater')) });
    for (const readOnly of [db.readOnlyPrisma, db.primaryReadOnlyPrisma]) {
      const refused = await readOnly.$executeRaw`UPDATE accounts SET name = name WHERE false`.then(() => 'written', (e: unknown) => sqlStateOf(e));
      expect(refused).toBe('25006');
      const [path] = await readOnly.$queryRaw<Array<{ search_path: string }>>`SHOW search_path`;
      expect(path!.search_path).toBe('public'); // and the operator's options still apply
    }
  });

  it('refuses a write through readDb() in every routing case (25006)', async () => {
    const withReplica = await open({ databaseReplicaUrl: setup.replica.urlFor('tidewater') });
    const noReplica = createDataLayer({ database: setup.database, config: setup.config, logger: log.logger });
    const replicated = createDataLayer({ database: withReplica, config: setup.config, logger: log.logger });
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
    const withFallback = await open({ databaseReplicaUrl: setup.replica.urlFor('tidewater'), replicaFallbackToPrimary: true }, fallbackLog.logger);
    const layer = createDataLayer({ database: withFallback, config: setup.config, logger: fallbackLog.logger });
    await setup.replica.stop();
    try {
      for (let i = 0; i < 3; i++) {
        const [where] = await inRequest(() => layer.readDb().$queryRaw<{ standby: boolean }[]>`SELECT pg_is_in_recovery() AS standby`);
        expect(where!.standby).toBe(false);
      }
      const warnings = fallbackLog.lines.filter((line) => line.msg === 'the read replica cannot be reached; reading from the primary');
      expect(warnings).toHaveLength(1);
    } finally {
      await setup.replica.start();
    }
  });

  it('reads a write in the next request within 5 s although the replica lags', async () => {
    const withReplica = await open({ databaseReplicaUrl: setup.replica.urlFor('tidewater') });
    const layer = createDataLayer({ database: withReplica, config: setup.config, logger: log.logger });
    const a = await newAccount(1n);
    const userId = randomUUID();
    await waitForReplica(async () => (await sql(setup.replica, 'SELECT 1 FROM accounts WHERE id = $1', [a])).length === 1);
    await sql(setup.replica, 'SELECT pg_wal_replay_pause()'); // the replica lags from here on
    try {
      await inRequest(async () => {
        await layer.beginRequest(userId);
        expect(layer.readConnection()).toMatchObject({ isReadOnly: true, isReadReplica: true, hasWrites: false });
        await layer.write((db) => db.$executeRaw`UPDATE accounts SET name = 'renamed' WHERE id = ${a}::uuid`);
        expect(layer.readConnection()).toMatchObject({ isReadOnly: true, isReadReplica: false, hasWrites: true });
        expect(await nameOf(layer, a)).toBe('renamed'); // same request
      });
      const nextRequest = await inRequest(async () => {
        await layer.beginRequest(userId);
        return nameOf(layer, a);
      });
      expect(nextRequest).toBe('renamed');
      // Another user, who wrote nothing, reads the lagging replica: proof that it lags.
      const stranger = await inRequest(async () => {
        await layer.beginRequest(randomUUID());
        return nameOf(layer, a);
      });
      expect(stranger).toBe('A');
    } finally {
      await sql(setup.replica, 'SELECT pg_wal_replay_resume()');
    }
  });

  it('shares read-your-writes marks between API processes through the database', async () => {
    const withReplica = await open({ databaseReplicaUrl: setup.replica.urlFor('tidewater') });
    const shared = { ...setup.config, readYourWritesStore: 'database' };
    const first = createDataLayer({ database: withReplica, config: shared, logger: log.logger, marks: databaseMarks(withReplica.prisma) });
    const second = createDataLayer({ database: withReplica, config: shared, logger: log.logger, marks: databaseMarks(withReplica.prisma) });
    const userId = randomUUID();
    await inRequest(async () => {
      await first.beginRequest(userId);
      await first.write((db) => db.$executeRaw`SELECT 1`);
    });
    // The mark is committed before the write answers (adr/0078): the very next request sees it.
    const onSecond = await inRequest(async () => {
      await second.beginRequest(userId);
      return second.readConnection();
    });
    expect(onSecond).toMatchObject({ isReadReplica: false, isReadOnly: true });
  });
});
