/**
 * Read-only means read-only on the embedded PGlite too (adr/0007): PGlite has one engine
 * and no replica, so `readDb()` reads the same data as `db`, but through read-only
 * transactions, so the classic "a write slipped onto the replica handle" bug fails on a
 * developer's machine before it meets a real replica.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../config.ts';
import { inRequest, memoryLogger } from '../../test/support/inRequest.ts';
import { createDataLayer } from './createDataLayer.ts';
import type { DataLayer } from './dataLayer.ts';
import { openDatabase, type Database } from './connections/index.ts';

/** The SQLSTATE under a Prisma error or a direct statement's adapter error, or the outcome in words. */
const sqlStateOf = (error: unknown) => {
  const shaped = error as { meta?: { driverAdapterError?: { cause?: { originalCode?: string } } }; cause?: { originalCode?: string } };
  return shaped.meta?.driverAdapterError?.cause?.originalCode ?? shaped.cause?.originalCode ?? String(error);
};

describe('readDb() on the embedded PGlite', () => {
  let database: Database;
  let data: DataLayer;

  beforeAll(async () => {
    const config = loadConfig({ DATA_DIR: 'memory://' });
    database = await openDatabase(config);
    await database.migrate();
    data = createDataLayer({ database, config, logger: memoryLogger().logger });
  }, 60_000);
  afterAll(() => database?.close());

  const writeThroughReadDb = () =>
    data.readDb().$executeRaw`INSERT INTO read_your_writes_marks VALUES (gen_random_uuid(), now())`.then(() => 'written', sqlStateOf);

  it('reads', async () => {
    await data.db.$executeRaw`INSERT INTO read_your_writes_marks VALUES (gen_random_uuid(), now())`;
    const [row] = await inRequest(() => data.readDb().$queryRaw<{ marks: number }[]>`SELECT count(*)::int AS marks FROM read_your_writes_marks`);
    expect(row!.marks).toBeGreaterThan(0);
  });

  it('refuses a write with 25006, before and after the request wrote', async () => {
    const outcomes = await inRequest(async () => {
      const before = await writeThroughReadDb();
      await data.write((db) => db.$executeRaw`SELECT 1`);
      return { before, after: await writeThroughReadDb() };
    });
    expect(outcomes).toEqual({ before: '25006', after: '25006' });
  });

  it('leaves the read-write handle and transactions able to write', async () => {
    const count = async () => (await data.db.$queryRaw<{ marks: number }[]>`SELECT count(*)::int AS marks FROM read_your_writes_marks`)[0]!.marks;
    const before = await count();
    await data.runInTransaction((tx) => tx.$executeRaw`INSERT INTO read_your_writes_marks VALUES (gen_random_uuid(), now())`);
    await data.write((db) => db.$executeRaw`INSERT INTO read_your_writes_marks VALUES (gen_random_uuid(), now())`);
    expect(await count()).toBe(before + 2);
  });
});
