/**
 * A stalled synchronous standby (adr/0019): with `synchronous_standby_names` naming the
 * standby, no COMMIT answers until the standby has it. Paused (SIGSTOP), the standby
 * holds every COMMIT: writes wait, the commit gate's bound ends the wait and the request
 * answers 503 within its deadline, never claiming `applied: false` (the COMMIT may still
 * land once the standby resumes); reads still answer; resumed, writes flow at once and the
 * held send moved at most once.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bank, newKey, type Bank, type Customer } from '@tidewater/test-support/bank';
import { query } from '@tidewater/test-support/bankDatabase';
import { startPrimary, startReplica, type PgCluster } from '@tidewater/test-support/pgCluster';
import { queryOnce, waitFor } from '@tidewater/test-support/pgProcesses';
import { startScaledApi } from './support/scaledApi.ts';

describe('a paused synchronous standby', () => {
  let primary: PgCluster;
  let replica: PgCluster;
  let api: Awaited<ReturnType<typeof startScaledApi>>;
  let b: Bank;
  let ada: Customer;

  beforeAll(async () => {
    primary = await startPrimary({ settings: { synchronous_commit: 'on' } });
    replica = await startReplica(primary);
    await queryOnce(primary.url, "ALTER SYSTEM SET synchronous_standby_names = 'tidewater_replica'");
    await queryOnce(primary.url, 'SELECT pg_reload_conf()');
    await waitFor('the standby to be synchronous', async () =>
      (await queryOnce<{ s: string }>(primary.url, 'SELECT sync_state AS s FROM pg_stat_replication')).some((row) => row.s === 'sync'),
    );
    // A 6 s deadline (as outageBridge.test.ts): signing up hashes a password, slow on a busy 2-core runner.
    api = await startScaledApi(primary.urlFor('tidewater'), { REQUEST_DEADLINE_MS: '6000' });
    b = bank(api.url);
    ada = await b.signUp();
  }, 180_000);
  afterAll(async () => {
    await api?.stop();
    await replica?.destroy();
    await primary?.destroy();
  });

  it('holds writes until the deadline (503, applied unknown), answers reads, and lets writes flow once resumed', async () => {
    expect((await b.deposit(ada, ada.accountId, 100)).status).toBe(201);
    await replica.pause();
    let held: Awaited<ReturnType<Bank['deposit']>>;
    const key = newKey();
    const started = Date.now();
    try {
      held = await b.deposit(ada, ada.accountId, 777, key);
      const tookMs = Date.now() - started;
      const read = await b.account(ada, ada.accountId);
      console.log(`standby paused: deposit ${held.status} applied=${String(held.body?.applied)} in ${tookMs} ms; read ${read.status}`);
      expect(held.status).toBe(503);
      expect(held.body?.applied).not.toBe(false); // its COMMIT may still land once the standby resumes
      expect(tookMs).toBeLessThan(api.bounds.answerMs);
      expect(read.status).toBe(200);
    } finally {
      await replica.resume();
    }
    const moved = async () =>
      Number((await query<{ n: string }>(primary.urlFor('tidewater'), 'SELECT count(*) AS n FROM ledger_entries WHERE idempotency_key = $1', [key]))[0]!.n);
    // Writes flow again at once.
    expect((await b.deposit(ada, ada.accountId, 100)).status).toBe(201);
    const [claim] = await query<{ status: string; landed: boolean }>(
      primary.urlFor('tidewater'),
      'SELECT status, landed_at IS NOT NULL AS landed FROM idempotency_records WHERE key = $1',
      [key],
    );
    const replay = await b.deposit(ada, ada.accountId, 777, key);
    console.log(`after resume: claim ${JSON.stringify(claim)}, moved ${await moved()}, replay ${replay.status} ${String(replay.body?.errorCode)}`);
    // What the held send did is now known to the database, and it moved at most once.
    expect(await moved()).toBeLessThanOrEqual(1);
    if (claim?.landed) expect(await moved()).toBe(1);
    expect(replay.status === 201 || replay.status === 409).toBe(true);
    if (replay.status === 201) expect(await moved()).toBe(1);
    expect(api.child.exitCode).toBeNull();
  }, 60_000);
});
