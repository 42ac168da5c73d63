/**
 * The commit gate and the request deadline against a real PostgreSQL, in a transaction: a
 * commit cannot start after the deadline, a started commit is never cancelled (even a slow
 * one that outlives the deadline), a failed commit re-arms the deadline at its original
 * instant, no statement starts after the signal fired, and a statement in flight at the
 * deadline is cancelled at the database.
 */
import { randomUUID } from 'node:crypto';
import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { isDeadlineExceeded } from '../../request/deadlineExceeded.ts';
import { commitGateOnPostgres } from '../../../test/support/commitGateOnPostgres.ts';
import { inRequest } from '../../../test/support/inRequest.ts';
import type { DataLayer } from '../dataLayer.ts';
import { createDataLayer } from '../createDataLayer.ts';
import { openDatabase } from '../connections/index.ts';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('the commit gate on PostgreSQL', () => {
  let commitDelayMs = 0;
  let commitFailure: Error | undefined;
  const setup = commitGateOnPostgres(async () => {
    if (commitDelayMs) await sleep(commitDelayMs);
    if (commitFailure) throw commitFailure;
  });
  const { exists } = setup;

  const insertUser = (tx: Parameters<Parameters<DataLayer['runInTransaction']>[0]>[0], id: string) =>
    tx.user.create({ data: { id, email: `${id}@example.com`, displayName: 'Gate', handle: id.slice(0, 20).replaceAll('-', '_'), passwordHash: 'x', pinHash: 'y' } });

  it('refuses a commit after the deadline, and nothing lands', async () => {
    const id = randomUUID();
    const outcome = await inRequest(
      () =>
        setup.data.runInTransaction(async (tx) => {
          await insertUser(tx, id);
          await sleep(400); // the deadline (150 ms) passes while the transaction is open
        }).then(() => 'committed', (error: unknown) => error),
      { deadlineMs: 150 },
    );
    expect(isDeadlineExceeded(outcome)).toBe(true);
    expect(await exists(id)).toBe(false);
  });

  it('never cancels a commit that started, even one that outlives the deadline', async () => {
    const id = randomUUID();
    commitDelayMs = 500; // the gate has passed; the COMMIT itself is slow
    try {
      const { result, aborted } = await inRequest(
        async (context) => {
          const result = await setup.data.runInTransaction(async (tx) => (await insertUser(tx, id)).id);
          return { result, aborted: context.signal.aborted };
        },
        { deadlineMs: 200 },
      );
      expect(result).toBe(id);
      expect(aborted).toBe(false);
      expect(await exists(id)).toBe(true);
    } finally {
      commitDelayMs = 0;
    }
  });

  it('re-arms the deadline at its original instant when the commit fails', async () => {
    commitDelayMs = 400;
    commitFailure = new Error('injected commit failure');
    try {
      const { error, abortedAfter, reason } = await inRequest(
        async (context) => {
          const error = await setup.data.runInTransaction((tx) => insertUser(tx, randomUUID())).then(() => undefined, (e: unknown) => e);
          await sleep(10);
          return { error, abortedAfter: context.signal.aborted, reason: context.signal.reason };
        },
        { deadlineMs: 150 },
      );
      expect(error).toBeDefined();
      expect(abortedAfter).toBe(true); // 150 ms had passed when the commit failed at ~400 ms
      expect(isDeadlineExceeded(reason)).toBe(true);
    } finally {
      commitDelayMs = 0;
      commitFailure = undefined;
    }
  });

  it('starts no statement after the signal fired', async () => {
    const seen = await inRequest(
      async (context) => {
        await sleep(120);
        expect(context.signal.aborted).toBe(true);
        return setup.data.read((db) => db.user.count()).then(() => 'ran', (error: unknown) => error);
      },
      { deadlineMs: 50 },
    );
    expect(isDeadlineExceeded(seen)).toBe(true);
  });

  it('cancels a statement in flight at the deadline, at the database', async () => {
    const started = Date.now();
    const outcome = await inRequest(
      () => setup.data.read((db) => db.$queryRaw`SELECT pg_sleep(5)`).then(() => 'finished', (error: unknown) => error),
      { deadlineMs: 300 },
    );
    expect(isDeadlineExceeded(outcome)).toBe(true);
    expect(Date.now() - started).toBeLessThan(3_000);
    // The backend stopped sleeping: the cancel reached PostgreSQL, not just our promise.
    const observer = new pg.Client({ connectionString: setup.cluster.urlFor('tidewater') });
    await observer.connect();
    try {
      let sleeping = 1;
      for (let i = 0; i < 20 && sleeping > 0; i++) {
        const { rows } = await observer.query(`SELECT count(*)::int AS n FROM pg_stat_activity WHERE query LIKE 'SELECT pg_sleep%' AND state = 'active'`);
        sleeping = rows[0].n;
        if (sleeping > 0) await sleep(100);
      }
      expect(sleeping).toBe(0);
    } finally {
      await observer.end();
    }
  });

  it("answers a transaction whose COMMIT outlives its bound as unknown through Prisma, and hands its connection on only once that COMMIT settled", async () => {
    // A real slow COMMIT: a deferred constraint trigger sleeps at commit time for this row alone.
    const admin = new pg.Client({ connectionString: setup.cluster.urlFor('tidewater') });
    await admin.connect();
    await admin.query(`
      CREATE FUNCTION gate_slow_commit() RETURNS trigger LANGUAGE plpgsql AS $$
        BEGIN IF NEW.display_name = 'Slow commit' THEN PERFORM pg_sleep(0.8); END IF; RETURN NULL; END $$;
      CREATE CONSTRAINT TRIGGER gate_slow_commit AFTER INSERT ON users
        DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION gate_slow_commit();`);
    const config = { ...setup.config, dbPoolMax: 1, dbCommitTimeoutMs: 200 };
    const single = await openDatabase(config, { logger: setup.logger });
    try {
      const data = createDataLayer({ database: single, config, logger: setup.logger });
      const id = randomUUID();
      // What the COMMIT's state was each time the pool handed its one connection out.
      let commits: Array<{ state: unknown }> | undefined;
      const atHandOut: unknown[] = [];
      single.pools[0]!.on('acquire', () => atHandOut.push(commits?.[0]?.state));
      const { outcome, states } = await inRequest(async (context) => {
        commits = context.commits ??= [];
        const outcome = await data
          .runInTransaction((tx) => tx.user.create({ data: { id, email: `${id}@example.com`, displayName: 'Slow commit', handle: id.slice(0, 20).replaceAll('-', '_'), passwordHash: 'x', pinHash: 'y' } }))
          .then(() => 'committed', (error: unknown) => error);
        return { outcome, states: context.commits?.map((commit) => commit.state) };
      }, { deadlineMs: 5_000 });
      expect(outcome).not.toBe('committed');
      expect(states).toEqual([{ kind: 'unknown', stillRunning: true }]); // no look was given: it stays unknown
      // The pool's one connection is the COMMIT's: the next statement gets it only once the COMMIT answered, and sees the row.
      expect(await single.prisma.user.count({ where: { id } })).toBe(1);
      expect(atHandOut.at(-1)).toEqual({ kind: 'unknown', stillRunning: false });
    } finally {
      await single.close();
      await admin.query('DROP TRIGGER gate_slow_commit ON users; DROP FUNCTION gate_slow_commit()');
      await admin.end();
    }
  });
});
