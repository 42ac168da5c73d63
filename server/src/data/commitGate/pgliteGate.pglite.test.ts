/**
 * The commit gate on the embedded PGlite (adr/0075), in a transaction through Prisma Client:
 * a commit before the deadline lands as the request's one commit; a commit after it is
 * refused (the engine rolls back) and nothing lands; no statement starts after the signal.
 */
import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { isDeadlineExceeded } from '../../request/deadlineExceeded.ts';
import { inRequest } from '../../../test/support/inRequest.ts';
import { dataLayerOnPglite } from '../../../test/support/dataLayerOnPglite.ts';
import type { DataLayer } from '../dataLayer.ts';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('the commit gate on PGlite', () => {
  const embedded = dataLayerOnPglite();

  const exists = async (id: string) => (await embedded.database.prisma.user.count({ where: { id } })) === 1;
  const insertUser = (tx: Parameters<Parameters<DataLayer['runInTransaction']>[0]>[0], id: string) =>
    tx.user.create({ data: { id, email: `${id}@example.com`, displayName: 'Gate', handle: id.slice(0, 20).replaceAll('-', '_'), passwordHash: 'x', pinHash: 'y' } });

  it("lands a commit before the deadline as the request's one commit", async () => {
    const id = randomUUID();
    const states = await inRequest(async (context) => {
      await embedded.data.runInTransaction((tx) => insertUser(tx, id));
      return context.commits?.map((commit) => commit.state.kind);
    }, { deadlineMs: 2_000 });
    expect(states).toEqual(['landed']);
    expect(await exists(id)).toBe(true);
  });

  it('refuses a commit after the deadline, and nothing lands', async () => {
    const id = randomUUID();
    const outcome = await inRequest(
      () =>
        embedded.data.runInTransaction(async (tx) => {
          await insertUser(tx, id);
          await sleep(200); // the deadline (80 ms) passes while the transaction is open
        }).then(() => 'committed', (error: unknown) => error),
      { deadlineMs: 80 },
    );
    expect(isDeadlineExceeded(outcome)).toBe(true);
    expect(await exists(id)).toBe(false);
  });

  it('starts no statement after the signal fired', async () => {
    const id = randomUUID();
    const outcome = await inRequest(async () => {
      await sleep(150);
      return embedded.data.write((db) => db.$executeRaw`INSERT INTO read_your_writes_marks VALUES (${id}::uuid, now())`).then(() => 'written', (error: unknown) => error);
    }, { deadlineMs: 50 });
    expect(isDeadlineExceeded(outcome)).toBe(true);
    expect(await embedded.database.prisma.$queryRaw<unknown[]>`SELECT 1 FROM read_your_writes_marks WHERE user_id = ${id}::uuid`).toEqual([]);
  });
});
