/**
 * A read-your-writes mark shared through the database (adr/0007, adr/0078) is committed
 * before the write that made it answers: a deposit answered by one API process, then the
 * visitor's next read on another while the replica lags, must go to the primary and show
 * the deposit. Another session holds the row lock on the visitor's mark, so the mark's write
 * is slow every time and the race is never left to chance. A mark late or failed leaves the
 * deposit's answer a success, logged and counted; a mark never waits for a synchronous standby.
 * A real PostgreSQL 15 primary with a real streaming replica; two data layers stand for two
 * API processes.
 */
import { randomUUID } from 'node:crypto';
import pg from 'pg';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { dataLayerOnPostgres, sql } from '../../test/support/dataLayerOnPostgres.ts';
import { inRequest, memoryLogger } from '../../test/support/inRequest.ts';
import { metricNames, registry } from '../metrics.ts';
import { createDataLayer } from './createDataLayer.ts';
import type { DataLayer } from './dataLayer.ts';
import { databaseMarks } from './connections/index.ts';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Polls `predicate` every 50 ms, for at most 10 s. */
async function waitUntil(what: string, predicate: () => Promise<boolean>): Promise<void> {
  for (const started = Date.now(); !(await predicate()); await sleep(50)) {
    if (Date.now() - started > 10_000) throw new Error(`waited 10 s for ${what}`);
  }
}

/** The marks that did not land before their write answered, by outcome. */
const marksMissed = async (outcome: 'late' | 'failed') =>
  (await registry.getSingleMetric(metricNames.readYourWritesMarksMissed)!.get()).values.find((v) => v.labels.outcome === outcome)?.value ?? 0;

describe('a read-your-writes mark in the database, while the replica lags', () => {
  const setup = dataLayerOnPostgres({ replica: true });
  const log = memoryLogger();
  /** Two API processes sharing their marks through the primary. */
  const processesWaitingUpTo = async (markWaitMs: number): Promise<[DataLayer, DataLayer]> => {
    const withReplica = await setup.open({ databaseReplicaUrl: setup.replica.urlFor('tidewater') });
    const config = { ...setup.config, readYourWritesStore: 'database', readYourWritesMarkWaitMs: markWaitMs } as const;
    const layer = () => createDataLayer({ database: withReplica, config, logger: log.logger, marks: databaseMarks(withReplica.prisma) });
    return [layer(), layer()];
  };
  let lockHolder: pg.Client | undefined;

  /** Another session locks `userId`'s mark row (an expired mark) until `letGo`: that user's next mark waits for it. */
  async function holdTheMark(userId: string): Promise<{ letGo(): Promise<void> }> {
    lockHolder = new pg.Client({ connectionString: setup.primary.urlFor('tidewater') });
    lockHolder.on('error', () => {});
    await lockHolder.connect();
    await lockHolder.query(`INSERT INTO read_your_writes_marks (user_id, primary_until) VALUES ($1, now() - interval '1 minute')`, [userId]);
    await lockHolder.query('BEGIN');
    await lockHolder.query('SELECT 1 FROM read_your_writes_marks WHERE user_id = $1 FOR UPDATE', [userId]);
    const holder = lockHolder;
    return { letGo: async () => void (await holder.query('ROLLBACK')) };
  }
  const markWaitsOnTheLock = async () =>
    (await sql(setup.primary, `SELECT 1 FROM pg_stat_activity WHERE wait_event_type = 'Lock' AND query LIKE '%INSERT INTO read_your_writes_marks%'`)).length > 0;

  /** A new customer with €10.00, replicated, then a replica that stops replaying: it lags from here on. */
  async function customerOnALaggingReplica(): Promise<{ userId: string; accountId: string }> {
    const accountId = await setup.newAccount(1_000n);
    const [{ userId }] = (await sql(setup.primary, 'SELECT user_id::text AS "userId" FROM accounts WHERE id = $1', [accountId])) as [{ userId: string }];
    await waitUntil('the replica to have the account', async () => (await sql(setup.replica, 'SELECT 1 FROM accounts WHERE id = $1', [accountId])).length === 1);
    await sql(setup.replica, 'SELECT pg_wal_replay_pause()');
    return { userId, accountId };
  }
  const balanceOn = async (cluster: 'primary' | 'replica', accountId: string) =>
    ((await sql(setup[cluster], 'SELECT balance_minor::text AS "balanceMinor" FROM accounts WHERE id = $1', [accountId])) as [{ balanceMinor: string }])[0].balanceMinor;

  /** A deposit of €5.00 through `layer` for `userId`: one statement that is its own commit, as the bank's money send is. */
  const deposit = (layer: DataLayer, userId: string, accountId: string) =>
    inRequest(
      async () => {
        await layer.beginRequest(userId);
        const [row] = await layer.runStatementAsCommit(
          (statements) => statements.query<{ balanceMinor: string }>`
            UPDATE accounts SET balance_minor = balance_minor + 500 WHERE id = ${accountId}::uuid RETURNING balance_minor::text AS "balanceMinor"`,
          { verifyCommitted: async () => false, landedAnswer: () => [] },
        );
        return row!.balanceMinor;
      },
      { deadlineMs: 30_000, logger: log.logger.child({ depositTo: accountId }) },
    );
  /** The visitor's next request on `layer`: where its reads go, and the balance it reads. */
  const nextRead = (layer: DataLayer, userId: string, accountId: string) =>
    inRequest(async () => {
      await layer.beginRequest(userId);
      const [row] = await layer.readDb().$queryRaw<{ balanceMinor: string }[]>`SELECT balance_minor::text AS "balanceMinor" FROM accounts WHERE id = ${accountId}::uuid`;
      return { isReadReplica: layer.readConnection().isReadReplica, balanceMinor: row!.balanceMinor };
    });

  beforeAll(async () => {
    // The replica must have the schema before it is paused.
    await waitUntil('the replica to have the schema', async () => (await sql(setup.replica, `SELECT to_regclass('read_your_writes_marks') IS NOT NULL AS ok`))[0]?.ok === true);
  });
  afterEach(async () => {
    await lockHolder?.end().catch(() => {});
    lockHolder = undefined;
    await sql(setup.replica, 'SELECT pg_wal_replay_resume()');
  });

  it('answers a deposit only once its mark is committed, so the next read on another process shows it', async () => {
    const [first, second] = await processesWaitingUpTo(10_000);
    const { userId, accountId } = await customerOnALaggingReplica();
    const mark = await holdTheMark(userId);
    const answered = deposit(first, userId, accountId);
    // The visitor's reload, sent the moment the deposit answers, lands on the other process.
    const reloaded = answered.then(() => nextRead(second, userId, accountId));
    await waitUntil("the deposit's mark to wait for the lock", markWaitsOnTheLock);
    // A deposit that answers without waiting for its mark has been read again within this second, before the lock goes.
    await Promise.race([reloaded, sleep(1_000)]);
    await mark.letGo();
    expect(await answered).toBe('1500');
    expect(await reloaded).toEqual({ isReadReplica: false, balanceMinor: '1500' });
    expect(await balanceOn('primary', accountId)).toBe('1500');
    expect(await balanceOn('replica', accountId)).toBe('1000'); // proof that the replica lags
  });

  it('answers a deposit whose mark cannot land in time, and logs and counts the mark', async () => {
    const [first] = await processesWaitingUpTo(200);
    const { userId, accountId } = await customerOnALaggingReplica();
    const lateBefore = await marksMissed('late');
    const mark = await holdTheMark(userId);
    try {
      // The money moved: the answer is the deposit's, never a 503 because of a mark.
      expect(await deposit(first, userId, accountId)).toBe('1500');
    } finally {
      await mark.letGo();
    }
    expect(await balanceOn('primary', accountId)).toBe('1500');
    expect(log.lines.filter((line) => line.msg === 'a read-your-writes mark did not land before the answer' && line.depositTo === accountId)).toHaveLength(1);
    expect(await marksMissed('late')).toBe(lateBefore + 1);
  });

  it('commits a mark without waiting for a synchronous standby', async () => {
    // Sessions that commit synchronously, and a synchronous standby that never answers: a commit there waits for good.
    const synchronous = `${setup.primary.urlFor('tidewater')}?options=${encodeURIComponent('-c synchronous_commit=on')}`;
    const database = await setup.open({ databaseUrl: synchronous });
    const userId = randomUUID();
    await sql(setup.primary, "ALTER SYSTEM SET synchronous_standby_names = 'ghost_standby'");
    try {
      await sql(setup.primary, 'SELECT pg_reload_conf()');
      await waitUntil('the ghost standby to be named', async () => (await sql(setup.primary, 'SHOW synchronous_standby_names'))[0]?.synchronous_standby_names === 'ghost_standby');
      let marked = false;
      const marking = databaseMarks(database.prisma).markWrite(userId, Date.now() + 5_000).then(() => (marked = true));
      const waitsForTheStandby = async () =>
        (await sql(setup.primary, `SELECT 1 FROM pg_stat_activity WHERE wait_event = 'SyncRep' AND query LIKE '%INSERT INTO read_your_writes_marks%'`)).length > 0;
      await waitUntil('the mark to commit or to wait for the standby', async () => marked || (await waitsForTheStandby()));
      expect(marked).toBe(true);
      await marking;
      expect(await databaseMarks(setup.database.prisma).primaryUntil(userId)).toBeGreaterThan(Date.now());
    } finally {
      await sql(setup.primary, 'ALTER SYSTEM RESET synchronous_standby_names');
      await sql(setup.primary, 'SELECT pg_reload_conf()');
    }
  });

  it('answers a deposit whose mark fails, and logs and counts the mark', async () => {
    const [first] = await processesWaitingUpTo(10_000);
    const { userId, accountId } = await customerOnALaggingReplica();
    const failedBefore = await marksMissed('failed');
    // The mark's table gone (an operator's mistake): its write fails at once; the deposit still answers.
    const renamed = `read_your_writes_marks_${randomUUID().slice(0, 8)}`;
    await sql(setup.primary, `ALTER TABLE read_your_writes_marks RENAME TO ${renamed}`);
    try {
      expect(await deposit(first, userId, accountId)).toBe('1500');
    } finally {
      await sql(setup.primary, `ALTER TABLE ${renamed} RENAME TO read_your_writes_marks`);
    }
    expect(await balanceOn('primary', accountId)).toBe('1500');
    expect(log.lines.filter((line) => line.msg === 'a read-your-writes mark did not land before the answer' && line.depositTo === accountId)).toHaveLength(1);
    expect(await marksMissed('failed')).toBe(failedBefore + 1);
  });
});
