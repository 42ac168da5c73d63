/**
 * A primary that turns read-only under load (issue 17, adr/0019): what a switchover or a
 * demoted primary does (`default_transaction_read_only = on`, reload, its sessions ended).
 * On a read-write connection 25006 means "this server is not the primary (any more)": the
 * API discards the connection and reruns the whole transaction like any transient failure,
 * and answers 503 while it persists: never 500. Once the server is writable again, writes
 * answer 2xx without a restart.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bank, newKey, type Bank, type Customer } from '@tidewater/test-support/bank';
import { call } from '@tidewater/test-support/httpClient';
import { startPrimary, type PgCluster } from '@tidewater/test-support/pgCluster';
import { queryOnce } from '@tidewater/test-support/pgProcesses';
import { startScaledApi } from './support/scaledApi.ts';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Server-wide read-only on or off, then ends the API's sessions so none keeps an old transaction open. */
async function setReadOnly(cluster: PgCluster, on: boolean): Promise<void> {
  await queryOnce(cluster.url, `ALTER SYSTEM SET default_transaction_read_only = ${on ? 'on' : 'off'}`);
  await queryOnce(cluster.url, 'SELECT pg_reload_conf()');
  await sleep(200); // every backend has read the reloaded configuration
  await queryOnce(cluster.url, "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = 'tidewater' AND pid <> pg_backend_pid()");
}

describe('a primary that turns read-only under load', () => {
  let cluster: PgCluster;
  let api: Awaited<ReturnType<typeof startScaledApi>>;
  let b: Bank;
  let ada: Customer;

  beforeAll(async () => {
    cluster = await startPrimary();
    // A 6 s deadline (as outageBridge.test.ts): signing up hashes a password, slow on a busy 2-core runner.
    api = await startScaledApi(cluster.urlFor('tidewater'), { REQUEST_DEADLINE_MS: '6000' });
    b = bank(api.url);
    ada = await b.signUp();
  }, 120_000);
  afterAll(async () => {
    await api?.stop();
    await cluster?.destroy();
  });

  it('answers deposits and account openings 503 (never 500) while read-only, and 2xx once writable again', async () => {
    const statuses: Record<'deposit' | 'open', number[]> = { deposit: [], open: [] };
    let phase: 'before' | 'readOnly' | 'after' = 'before';
    const during: Record<string, number[]> = { before: [], readOnly: [], after: [] };
    let running = true;
    const load = Array.from({ length: 6 }, async (_, i) => {
      while (running) {
        const kind = i % 2 ? 'deposit' : 'open';
        const reply =
          kind === 'deposit'
            ? await b.deposit(ada, ada.accountId, 100)
            : await call(api.url, 'POST', '/api/accounts', { token: ada.token, body: { name: `Pot ${i}` }, headers: { 'idempotency-key': newKey() } });
        statuses[kind].push(reply.status);
        during[phase]!.push(reply.status);
      }
    });
    await sleep(1_000);
    phase = 'readOnly';
    await setReadOnly(cluster, true);
    await sleep(4_000);
    await setReadOnly(cluster, false);
    phase = 'after';
    await sleep(2_000);
    running = false;
    await Promise.all(load);
    const summary = Object.fromEntries(Object.entries(during).map(([name, list]) => [name, count(list)]));
    console.log('statuses by phase:', JSON.stringify(summary));
    const direct = await b.deposit(ada, ada.accountId, 100);
    expect(direct.status).toBe(201);
    expect(during.readOnly!.filter((status) => status === 503).length).toBeGreaterThan(0);
    expect(during.readOnly!.filter((status) => status >= 500 && status !== 503)).toEqual([]);
    expect([...statuses.deposit, ...statuses.open].filter((status) => status >= 500 && status !== 503)).toEqual([]);
    expect(during.after!.filter((status) => status === 201).length).toBeGreaterThan(0);
    expect(api.child.exitCode).toBeNull();
  }, 60_000);

  it('answers an account opening 503 while read-only, with a problem body and Retry-After', async () => {
    await setReadOnly(cluster, true);
    try {
      const reply = await fetch(`${api.url}/api/accounts`, {
        method: 'POST',
        headers: { authorization: `Bearer ${ada.token}`, 'content-type': 'application/json' },
        body: JSON.stringify({ name: 'Rainy day' }),
      });
      const body = (await reply.json()) as { errorCode?: string };
      expect([reply.status, body.errorCode]).toEqual([503, expect.any(String)]);
      expect(reply.headers.get('retry-after')).not.toBeNull();
    } finally {
      await setReadOnly(cluster, false);
    }
    await sleep(500);
    expect((await b.deposit(ada, ada.accountId, 100)).status).toBe(201);
  }, 30_000);
});

const count = (list: number[]) => list.reduce<Record<number, number>>((acc, status) => ({ ...acc, [status]: (acc[status] ?? 0) + 1 }), {});
