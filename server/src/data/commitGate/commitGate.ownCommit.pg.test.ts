/**
 * A statement that is its own commit (adr/0027) against a real PostgreSQL: it commits on
 * its answer with no transaction around it; it is refused once the deadline fired; in flight
 * at the deadline it is cancelled at the database and rolls back, with no commit started;
 * one that answers only after its cancel is an unknown outcome, never landed (a synchronous
 * standby may not have it, adr/0019); its connection goes back to the request's cancel, and
 * what ended it is read before a waiting request takes that connection; a second statement
 * is refused; a lost lock wait counts as contention.
 */
import { randomUUID } from 'node:crypto';
import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { isDeadlineExceeded } from '../../request/deadlineExceeded.ts';
import { requestMayHaveMoved } from '../../request/commitOutcome.ts';
import { queryOnce } from '@tidewater/test-support/pgProcesses';
import { commitGateOnPostgres } from '../../../test/support/commitGateOnPostgres.ts';
import { inRequest } from '../../../test/support/inRequest.ts';
import { createDataLayer } from '../createDataLayer.ts';
import type { DataLayer } from '../dataLayer.ts';
import { openDatabase, type Database } from '../connections/index.ts';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('the commit gate on PostgreSQL', () => {
  const setup = commitGateOnPostgres();
  const { exists, logger } = setup;

  describe('a statement that is its own commit (adr/0027)', () => {
    /** Inserts user `id` in one statement that first sleeps `sleepS` seconds: its own commit. */
    const insertAlone = (id: string, sleepS = 0) =>
      setup.data.runStatementAsCommit(
        (sql) => sql.query<{ id: string }>`
          WITH slept AS (SELECT pg_sleep(${sleepS}::float8))
          INSERT INTO users (id, email, display_name, handle, password_hash, pin_hash)
          SELECT ${id}::uuid, ${id} || '@example.com', 'Gate', replace(left(${id}, 20), '-', '_'), 'x', 'y' FROM slept
          RETURNING id::text`,
        { verifyCommitted: async () => exists(id), landedAnswer: () => [{ id }] },
      );

    it('commits on its answer, with no transaction around it', async () => {
      const id = randomUUID();
      const { rows, commitStarted, states } = await inRequest(
        async (context) => ({ rows: await insertAlone(id), commitStarted: requestMayHaveMoved(context), states: context.commits?.map((commit) => commit.state.kind) }),
        { deadlineMs: 2_000 },
      );
      expect(rows).toEqual([{ id }]);
      expect(commitStarted).toBe(true);
      expect(states).toEqual(['landed']);
      expect(await exists(id)).toBe(true);
    });

    it('is refused once the deadline fired, and nothing lands', async () => {
      const id = randomUUID();
      const outcome = await inRequest(async () => {
        await sleep(200);
        return insertAlone(id).then(() => 'committed', (error: unknown) => error);
      }, { deadlineMs: 100 });
      expect(isDeadlineExceeded(outcome)).toBe(true);
      expect(await exists(id)).toBe(false);
    });

    it('is cancelled at the database at the deadline, rolls back, and the request hears its deadline with no commit started', async () => {
      const id = randomUUID();
      const started = Date.now();
      const { outcome, commitStarted, states } = await inRequest(async (context) => {
        const outcome = await insertAlone(id, 3).then(() => 'committed', (error: unknown) => error);
        return { outcome, commitStarted: requestMayHaveMoved(context), states: context.commits?.map((commit) => commit.state.kind) };
      }, { deadlineMs: 300 });
      expect(isDeadlineExceeded(outcome)).toBe(true);
      expect(commitStarted).toBe(false); // so a 503 may say applied: false
      expect(states).toEqual(['refused']);
      expect(Date.now() - started).toBeLessThan(2_500);
      expect(await exists(id)).toBe(false);
    });

    it('calls a statement that answered only after its cancel unknown, although it committed here: a synchronous standby may not have it (adr/0019)', async () => {
      // PostgreSQL takes a cancel during the wait for a synchronous standby as a warning: the
      // statement answers its rows, committed on this server only. No standby named here ever
      // connects, so the statement's commit (synchronous_commit on for it alone) waits for good.
      const id = randomUUID();
      const admin = new pg.Client({ connectionString: setup.cluster.urlFor('tidewater') });
      await admin.connect();
      let ghostDatabase: Database | undefined;
      try {
        await admin.query("ALTER SYSTEM SET synchronous_standby_names = 'ghost_standby'");
        await admin.query('SELECT pg_reload_conf()');
        const setting = () => queryOnce<{ s: string }>(setup.cluster.urlFor('tidewater'), "SELECT current_setting('synchronous_standby_names') AS s");
        for (let i = 0; i < 100 && (await setting())[0]?.s !== 'ghost_standby'; i++) await sleep(20);
        // Fresh connections, which read the setting as they start (pooled ones take a reload only later).
        ghostDatabase = await openDatabase(setup.config, { logger });
        const ghostData = createDataLayer({ database: ghostDatabase, config: setup.config, logger });
        const { outcome, commitStarted, states } = await inRequest(async (context) => {
          const outcome = await ghostData.runStatementAsCommit(
            (sql) => sql.query<{ id: string }>`
              WITH sync AS (SELECT set_config('synchronous_commit', 'on', true))
              INSERT INTO users (id, email, display_name, handle, password_hash, pin_hash)
              SELECT ${id}::uuid, ${id} || '@example.com', 'Gate', replace(left(${id}, 20), '-', '_'), 'x', 'y' FROM sync
              RETURNING id::text`,
            // The look sees the row (it is committed here), and it must not be asked.
            { verifyCommitted: async () => (await admin.query('SELECT 1 FROM users WHERE id = $1', [id])).rowCount === 1, landedAnswer: () => [{ id }] },
          ).then((rows) => rows, (error: unknown) => error);
          return { outcome, commitStarted: requestMayHaveMoved(context), states: context.commits?.map((commit) => commit.state) };
        }, { deadlineMs: 300 });
        // Not its rows: the request hears its deadline (or the unknown outcome), with its commit started, so a 503 says nothing of applied.
        expect(isDeadlineExceeded(outcome) || (outcome as { code?: string }).code === 'COMMIT_OUTCOME_UNKNOWN').toBe(true);
        expect(commitStarted).toBe(true);
        expect(states?.map((state) => state.kind)).toEqual(['unknown']); // no look may call it landed
        expect(await exists(id)).toBe(true); // committed on this server: a look would have found it
      } finally {
        await ghostDatabase?.close();
        await admin.query('ALTER SYSTEM RESET synchronous_standby_names');
        await admin.query('SELECT pg_reload_conf()');
        await admin.end();
      }
    });

    /** Runs `fn` on a data layer of its own whose pool has one connection, so its statements take turns on it. */
    const onOneConnection = async (fn: (singleData: DataLayer) => Promise<void>) => {
      const single = await openDatabase({ ...setup.config, dbPoolMax: 1 }, { logger });
      try {
        await fn(createDataLayer({ database: single, config: setup.config, logger }));
      } finally {
        await single.close();
      }
    };

    it("gives its connection back to the request's cancel: the next statement on it is cancelled at its own deadline", () =>
      // One connection, so the read below runs on the one the statement that was its own commit used.
      onOneConnection(async (singleData) => {
        const id = randomUUID();
        const rows = await inRequest(
          () => singleData.runStatementAsCommit((sql) => sql.query<{ id: string }>`SELECT ${id}::text AS id`, { verifyCommitted: async () => false, landedAnswer: () => [] }),
          { deadlineMs: 2_000 },
        );
        expect(rows).toEqual([{ id }]);
        const started = Date.now();
        const outcome = await inRequest(
          () => singleData.read((db) => db.$queryRaw`SELECT pg_sleep(5), ${id}::text`).then(() => 'finished', (error: unknown) => error),
          { deadlineMs: 300 },
        );
        expect(isDeadlineExceeded(outcome)).toBe(true);
        expect(Date.now() - started).toBeLessThan(3_000);
      }));

    it('reads what ended a statement before it gives the connection to a request waiting for it', () =>
      // One connection: the second statement below waits for it while the first loses its lock
      // wait, and takes it, sending itself, the moment the first gives it back.
      onOneConnection(async (singleData) => {
        const holder = new pg.Client({ connectionString: setup.cluster.urlFor('tidewater') });
        await holder.connect();
        try {
          const id = randomUUID();
          await inRequest(() => singleData.runStatementAsCommit((sql) => sql.query`
            INSERT INTO users (id, email, display_name, handle, password_hash, pin_hash)
            VALUES (${id}::uuid, ${id} || '@example.com', 'Gate', replace(left(${id}, 20), '-', '_'), 'x', 'y') RETURNING id::text`,
            { verifyCommitted: async () => exists(id), landedAnswer: () => [] }));
          await holder.query('BEGIN');
          await holder.query('SELECT id FROM users WHERE id = $1 FOR UPDATE', [id]);
          let looks = 0;
          let sent = 0;
          const locked = inRequest(
            () =>
              singleData.runStatementAsCommit(
                (sql) => {
                  sent += 1;
                  return sql.query`
                    UPDATE users SET display_name = 'Locked'
                    FROM (SELECT set_config('lock_timeout', '200ms', true)) AS bound
                    WHERE id = ${id}::uuid RETURNING id::text`;
                },
                { contentionAttempts: 1, verifyCommitted: async () => ((looks += 1), false), landedAnswer: () => [] },
              ).then(() => 'updated', (error: unknown) => error),
            { deadlineMs: 5_000 },
          );
          await sleep(50); // the statement holds the one connection, waiting for its lock
          const waiting = inRequest(() => singleData.runStatementAsCommit((sql) => sql.query`SELECT 1 AS one`, { verifyCommitted: async () => false, landedAnswer: () => [] }), { deadlineMs: 5_000 });
          // A lost lock wait rolled the statement back: contention, once, never a commit started
          // (misread, it was run again as a temporary failure, spending the retry budget).
          expect(await locked).toMatchObject({ name: 'ContentionExhausted', attempts: 1 });
          expect(sent).toBe(1);
          expect(looks).toBe(0);
          await waiting;
        } finally {
          await holder.query('ROLLBACK').catch(() => undefined);
          await holder.end();
        }
      }));

    it('refuses a second statement: each would commit apart', async () => {
      const outcome = await inRequest(
        () =>
          setup.data.runStatementAsCommit(
            async (sql) => {
              await sql.query`SELECT 1`;
              return sql.query`SELECT 2`;
            },
            { verifyCommitted: async () => false, landedAnswer: () => [] },
          ).then(() => 'ran', (error: unknown) => error),
        { deadlineMs: 2_000 },
      );
      expect(String(outcome)).toMatch(/one statement/);
    });

    it('counts a lost lock wait as contention, never as a commit whose outcome is unknown', async () => {
      const id = randomUUID();
      await insertAlone(id);
      const holder = new pg.Client({ connectionString: setup.cluster.urlFor('tidewater') });
      await holder.connect();
      try {
        await holder.query('BEGIN');
        await holder.query('SELECT id FROM users WHERE id = $1 FOR UPDATE', [id]);
        const outcome = await inRequest(
          () =>
            setup.data.runStatementAsCommit(
              (sql) => sql.query`
                UPDATE users SET display_name = 'Locked'
                FROM (SELECT set_config('lock_timeout', '100ms', true)) AS bound
                WHERE id = ${id}::uuid RETURNING id::text`,
              { contentionAttempts: 2, verifyCommitted: async () => false, landedAnswer: () => [] },
            ).then(() => 'updated', (error: unknown) => error),
          { deadlineMs: 5_000 },
        );
        expect(outcome).toMatchObject({ name: 'ContentionExhausted', attempts: 2 });
      } finally {
        await holder.query('ROLLBACK');
        await holder.end();
      }
    });
  });
});
