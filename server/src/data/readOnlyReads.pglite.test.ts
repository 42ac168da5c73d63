/**
 * Read-only means read-only on the embedded PGlite too (adr/0007): PGlite has one engine
 * and no replica, so `readDb()` reads the same data as `db`, but through read-only
 * transactions, so the classic "a write slipped onto the replica handle" bug fails on a
 * developer's machine before it meets a real replica.
 */
import { describe, expect, it } from 'vitest';
import { inRequest } from '../../test/support/inRequest.ts';
import { dataLayerOnPglite } from '../../test/support/dataLayerOnPglite.ts';

/** The SQLSTATE under a Prisma error or a direct statement's adapter error, or the outcome in words. */
const sqlStateOf = (error: unknown) => {
  const shaped = error as { meta?: { driverAdapterError?: { cause?: { originalCode?: string } } }; cause?: { originalCode?: string } };
  return shaped.meta?.driverAdapterError?.cause?.originalCode ?? shaped.cause?.originalCode ?? String(error);
};

describe('readDb() on the embedded PGlite', () => {
  const embedded = dataLayerOnPglite();

  const writeThroughReadDb = () =>
    embedded.data.readDb().$executeRaw`INSERT INTO read_your_writes_marks VALUES (gen_random_uuid(), now())`.then(() => 'written', sqlStateOf);

  it('reads', async () => {
    await embedded.data.db.$executeRaw`INSERT INTO read_your_writes_marks VALUES (gen_random_uuid(), now())`;
    const [row] = await inRequest(() => embedded.data.readDb().$queryRaw<{ marks: number }[]>`SELECT count(*)::int AS marks FROM read_your_writes_marks`);
    expect(row!.marks).toBeGreaterThan(0);
  });

  it('refuses a write with 25006, before and after the request wrote', async () => {
    const outcomes = await inRequest(async () => {
      const before = await writeThroughReadDb();
      await embedded.data.write((db) => db.$executeRaw`SELECT 1`);
      return { before, after: await writeThroughReadDb() };
    });
    expect(outcomes).toEqual({ before: '25006', after: '25006' });
  });

  it('leaves the read-write handle and transactions able to write', async () => {
    const count = async () => (await embedded.data.db.$queryRaw<{ marks: number }[]>`SELECT count(*)::int AS marks FROM read_your_writes_marks`)[0]!.marks;
    const before = await count();
    await embedded.data.runInTransaction((tx) => tx.$executeRaw`INSERT INTO read_your_writes_marks VALUES (gen_random_uuid(), now())`);
    await embedded.data.write((db) => db.$executeRaw`INSERT INTO read_your_writes_marks VALUES (gen_random_uuid(), now())`);
    expect(await count()).toBe(before + 2);
  });
});
