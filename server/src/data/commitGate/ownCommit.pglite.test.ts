/**
 * A statement that is its own commit on the embedded PGlite (adr/0075): there is no pool and
 * no connection to lose, so the gate sends it on the engine itself. What it still does
 * there: it commits on its answer (landed), it is refused once the request's signal fired
 * (nothing lands), and an error at the database ends it rolled back (refused, never in
 * doubt) with the deadline running again.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../config.ts';
import { isDeadlineExceeded } from '../../request/deadlineExceeded.ts';
import { inRequest, memoryLogger } from '../../../test/support/inRequest.ts';
import { openDatabase, type Database } from '../connections/index.ts';
import { committingStatement } from '../statements.ts';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('a statement that is its own commit on PGlite', () => {
  let database: Database;

  beforeAll(async () => {
    database = await openDatabase(loadConfig({ DATA_DIR: 'memory://' }), { logger: memoryLogger().logger });
    await database.migrate();
  }, 60_000);
  afterAll(() => database?.close());

  const exists = async (id: string) => (await database.prisma.user.count({ where: { id } })) === 1;
  /** Inserts user `id` in one statement, its own commit; `handle` may break the table's rule. */
  const insertAlone = (id: string, handle = id.slice(0, 20).replaceAll('-', '_')) =>
    committingStatement(database.sendOwnCommit).query<{ id: string; created: unknown }>`
      INSERT INTO users (id, email, display_name, handle, password_hash, pin_hash)
      VALUES (${id}::uuid, ${id} || '@example.com', 'Gate', ${handle}, 'x', 'y')
      RETURNING id::text, jsonb_build_object('by', 'gate') AS created`;

  it('commits on its answer, its rows keyed by column (jsonb parsed)', async () => {
    const id = randomUUID();
    const { rows, states } = await inRequest(async (context) => ({ rows: await insertAlone(id), states: context.commits?.map((commit) => commit.state.kind) }), {
      deadlineMs: 2_000,
    });
    expect(rows).toEqual([{ id, created: { by: 'gate' } }]);
    expect(states).toEqual(['landed']);
    expect(await exists(id)).toBe(true);
  });

  it('is refused once the signal fired, and nothing lands', async () => {
    const id = randomUUID();
    const outcome = await inRequest(async () => {
      await sleep(150);
      return insertAlone(id).then(() => 'committed', (error: unknown) => error);
    }, { deadlineMs: 50 });
    expect(isDeadlineExceeded(outcome)).toBe(true);
    expect(await exists(id)).toBe(false);
  });

  it('ends rolled back on an error at the database: refused, not in doubt, and the deadline runs again', async () => {
    const first = randomUUID();
    await inRequest(() => insertAlone(first), { deadlineMs: 2_000 });
    const second = randomUUID();
    const { outcome, states, aborted } = await inRequest(
      async (context) => {
        const outcome = await insertAlone(second, first.slice(0, 20).replaceAll('-', '_')).then(() => 'committed', (error: unknown) => (error as { code?: string }).code);
        await sleep(300); // past the deadline: re-armed after the failed statement, it fires
        return { outcome, states: context.commits?.map((commit) => commit.state.kind), aborted: context.signal.aborted };
      },
      { deadlineMs: 200 },
    );
    expect(outcome).toBe('23505');
    expect(states).toEqual(['refused']);
    expect(aborted).toBe(true);
    expect(await exists(second)).toBe(false);
  });
});
