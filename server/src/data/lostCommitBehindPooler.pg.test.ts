/**
 * A lost COMMIT behind a pooler (adr/0060, adr/0026) on a real PostgreSQL: the server process
 * of a statement that is its own commit is terminated mid-statement, and the look finds
 * nothing. Direct (DB_SESSION_SETTINGS=startup) the pid is the server process's, so after it
 * ended "not found" is a proof: not landed. Behind a pooler (`role`) the pid is the pooler's,
 * nobody can wait for the real process, so the same look leaves the outcome unknown: never a
 * wrong `applied: false`.
 */
import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { queryOnce } from '@tidewater/test-support/pgProcesses';
import { requestMayHaveMoved } from '../request/commitOutcome.ts';
import { commitGateOnPostgres } from '../../test/support/commitGateOnPostgres.ts';
import { inRequest } from '../../test/support/inRequest.ts';
import { createDataLayer } from './createDataLayer.ts';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('the look at a lost COMMIT, direct and behind a pooler', () => {
  const setup = commitGateOnPostgres();

  /** Inserts user `id` in a statement that is its own commit, whose server process is terminated while it sleeps; answers the request's commit states. */
  async function lostInsert(dbSessionSettings: 'startup' | 'role') {
    const data = createDataLayer({ database: setup.database, config: { ...setup.config, dbSessionSettings }, logger: setup.logger });
    const id = randomUUID();
    const terminated = (async () => {
      const url = setup.cluster.urlFor('tidewater');
      for (let i = 0; i < 200; i++) {
        const rows = await queryOnce<{ ended: boolean }>(url, `SELECT pg_terminate_backend(pid) AS ended FROM pg_stat_activity WHERE query LIKE '%AS lost_marker%' AND pid <> pg_backend_pid()`);
        if (rows.length > 0) return;
        await sleep(20);
      }
      throw new Error('the statement never showed up');
    })();
    const result = await inRequest(async (context) => {
      const outcome = await data
        .runStatementAsCommit(
          (sql) => sql.query<{ id: string }>`
            WITH slept AS (SELECT pg_sleep(5), ${id}::text AS lost_marker)
            INSERT INTO users (id, email, display_name, handle, password_hash, pin_hash)
            SELECT ${id}::uuid, ${id} || '@example.com', 'Lost', replace(left(${id}, 20), '-', '_'), 'x', 'y' FROM slept
            RETURNING id::text`,
          { verifyCommitted: async () => setup.exists(id), landedAnswer: () => [{ id }] },
        )
        .then(() => 'answered', (error: unknown) => error);
      return { outcome, mayHaveMoved: requestMayHaveMoved(context), states: context.commits?.map((commit) => commit.state.kind) };
    }, { deadlineMs: 10_000 });
    await terminated;
    return { ...result, landed: await setup.exists(id) };
  }

  it('direct: the pid is the server process, so once it ended, not found proves not landed', async () => {
    const { states, landed } = await lostInsert('startup');
    expect(states?.[0]).toBe('not-landed');
    expect(landed).toBe(states?.at(-1) === 'landed'); // the retry, when the policy allowed one, is the only write
  });

  it('behind a pooler: not found leaves the outcome unknown (a 503 that says nothing of applied), and nothing runs again', async () => {
    const { outcome, states, mayHaveMoved, landed } = await lostInsert('role');
    expect(outcome).not.toBe('answered');
    expect(states).toEqual(['unknown']);
    expect(mayHaveMoved).toBe(true);
    expect(landed).toBe(false);
  });
});
