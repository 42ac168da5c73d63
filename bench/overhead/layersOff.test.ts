/**
 * The overhead scenario's two sides: main.ts (every layer) and layersOffApi.ts (the same
 * composition, each layer passed through). The off side really bypasses the layers and the
 * on side does not. Two APIs on one throwaway cluster, on the same short deadline:
 *
 * - database up: both answer, and deposits through the off side land (nothing but the data
 *   layer sends their COMMIT);
 * - database stopped: with the layers on, the circuit breaker holds the request until the
 *   deadline (503 at ≥ the deadline); with them off, the one attempt fails at once (no
 *   retry, no breaker): 503 well before the deadline;
 * - database hung (SIGSTOP): on answers 503 at the deadline; off never answers by itself
 *   (no deadline, nothing cancelled): the client gives up past deadline + 2 s.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startApi, type ApiProcess } from '@tidewater/test-support/apiProcess';
import { bank, newKey, type Customer } from '@tidewater/test-support/bank';
import { keyState } from '@tidewater/test-support/bankDatabase';
import { call } from '@tidewater/test-support/httpClient';
import { startPrimary, type PgCluster } from '@tidewater/test-support/pgCluster';
import { startLayersOffApi } from './layersOff.ts';

const DEADLINE_MS = 3_000;
const env = {
  REQUEST_DEADLINE_MS: String(DEADLINE_MS),
  DB_STATEMENT_TIMEOUT_MS: '2000',
  DB_CONNECT_TIMEOUT_MS: '500',
  DB_COMMIT_TIMEOUT_MS: '500',
  DB_POOL_WAIT_MS: '500',
  DB_RETRY_BASE_DELAY_MS: '50',
  DB_RETRY_MAX_DELAY_MS: '200',
  DB_READINESS_PROBE_MS: '250',
  IDEMPOTENCY_STORE_BUDGET_MS: '300',
  IDEMPOTENCY_RELEASE_BUDGET_MS: '300',
  ACCOUNT_LOCK_WAIT_MS: '100',
  LOG_LEVEL: 'info',
};

describe('the layers on (main.ts) and passed through (layersOffApi.ts), against a real database', () => {
  let cluster: PgCluster;
  let on: ApiProcess;
  let off: ApiProcess;
  let ada: Customer;

  beforeAll(async () => {
    cluster = await startPrimary();
    const url = cluster.urlFor('tidewater');
    on = await startApi({ ...env, DATABASE_URL: url });
    off = await startLayersOffApi({ ...env, DATABASE_URL: url });
    ada = await bank(on.url).signUpPatiently();
  });
  afterAll(async () => {
    await on?.stop();
    await off?.stop();
    await cluster?.destroy();
  });

  const timedAccounts = async (api: ApiProcess, clientTimeoutMs: number) => {
    const started = Date.now();
    const reply = await call(api.url, 'GET', '/api/accounts', { token: ada.token, signal: AbortSignal.timeout(clientTimeoutMs) }).catch(() => undefined);
    return { status: reply?.status, ms: Date.now() - started };
  };

  it('both answer while the database is up', async () => {
    expect((await timedAccounts(on, 5_000)).status).toBe(200);
    expect((await timedAccounts(off, 5_000)).status).toBe(200);
  });

  it('commits with the layers off too: deposits through off are in the database, landed, and the next ones on the same connections work', async () => {
    const off$ = bank(off.url);
    const before = await bank(on.url).balance(ada, ada.accountId);
    const keys = Array.from({ length: 6 }, () => newKey());
    // Without the commit gate nothing but the data layer sends COMMIT: without it no row lands, and the connection goes back to the pool mid-transaction.
    for (const key of keys) expect((await off$.deposit(ada, ada.accountId, 10, key)).status).toBe(201);
    const url = cluster.urlFor('tidewater');
    for (const key of keys) {
      const state = await keyState(url, key);
      expect(state.ledger).toHaveLength(1);
      expect(state.records.map((record) => record.status)).toEqual(['Executed']);
    }
    expect(await bank(on.url).balance(ada, ada.accountId)).toBe(before + 60);
  });

  it('database stopped: on waits at the circuit breaker until the deadline; off fails at once, not retried', async () => {
    await cluster.stop();
    try {
      const [withLayers, without] = await Promise.all([timedAccounts(on, 10_000), timedAccounts(off, 10_000)]);
      expect(withLayers.status).toBe(503);
      expect(withLayers.ms).toBeGreaterThanOrEqual(DEADLINE_MS - 100);
      expect(without.status).toBe(503);
      expect(without.ms).toBeLessThan(DEADLINE_MS / 2);
      expect(off.logLines.some((line) => line.includes('retrying after a temporary database failure'))).toBe(false);
    } finally {
      await cluster.start();
    }
    // Both find the database again (on: its probe closes the breaker).
    await expect.poll(async () => (await timedAccounts(on, 5_000)).status, { timeout: 15_000, interval: 250 }).toBe(200);
    await expect.poll(async () => (await timedAccounts(off, 5_000)).status, { timeout: 15_000, interval: 250 }).toBe(200);
  });

  it('database hung: on answers 503 at the deadline; off has no deadline and never answers by itself', async () => {
    const clientTimeoutMs = DEADLINE_MS + 2_500;
    await cluster.pause();
    try {
      const [withLayers, without] = await Promise.all([timedAccounts(on, clientTimeoutMs), timedAccounts(off, clientTimeoutMs)]);
      expect(withLayers.status).toBe(503);
      expect(withLayers.ms).toBeGreaterThanOrEqual(DEADLINE_MS - 100);
      expect(withLayers.ms).toBeLessThan(DEADLINE_MS + 2_000);
      expect(without.status).toBeUndefined();
      expect(without.ms).toBeGreaterThanOrEqual(clientTimeoutMs - 100);
    } finally {
      await cluster.resume();
    }
  });
});
