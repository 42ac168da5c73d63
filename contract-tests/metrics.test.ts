/**
 * `/metrics` of the API and the BFF (adr/0017), scraped while real faults happen: the
 * counters an operator would watch move as they should.
 *
 * One primary with a streaming replica (fallback on), the API on the scaled chain beside
 * them, and a BFF in front of it at the end:
 *
 * - the API's port answers /metrics 404 problem+json; its metrics port serves the text;
 * - reads: the replica serves them, read-your-writes sends a user who just wrote to the
 *   primary, and a stopped replica raises the fallbacks;
 * - contention: a send whose account lock is held loses every lock wait and answers busy,
 *   counted as lost lock waits and a 503 of cause busy_account;
 * - a stopped primary: the circuit breaker opens (gauge 0, waiters, failed probes), the
 *   waits count as breaker_wait retry decisions, and the 503s count by cause (deadline);
 * - no label anywhere holds an id, an email, a key or a URL;
 * - the BFF: its public port never serves metrics, its own port does, labelled by
 *   api:<operationId>; a stopped API counts as upstream_unreachable.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bank, newKey, outcome, type Bank, type Customer } from '@tidewater/test-support/bank';
import { holdingAccount } from '@tidewater/test-support/bankDatabase';
import { uniqueHandle } from '@tidewater/test-support/handles';
import { startBff, type BffProcess } from '@tidewater/test-support/bffProcess';
import { call } from '@tidewater/test-support/httpClient';
import { scrapeMetrics, sumOf, type Sample } from '@tidewater/test-support/metrics';
import { startPrimary, startReplica, type PgCluster } from '@tidewater/test-support/pgCluster';
import { startScaledApi } from './support/scaledApi.ts';
import { bffTransport } from './soak/transport.ts';

const DATABASE = 'tidewater';
const READ_YOUR_WRITES_MS = 1_500;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const uuid = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/i;

describe('/metrics while the bank meets real faults', () => {
  let primary: PgCluster;
  let replica: PgCluster;
  let api: Awaited<ReturnType<typeof startScaledApi>>;
  let bff: BffProcess | undefined;
  let b: Bank;
  let ada: Customer;
  const scrape = () => scrapeMetrics(api.metricsUrl);
  /** The change of a sum between two scrapes. */
  const moved = (before: Sample[], after: Sample[], name: string, labels: Record<string, string> = {}) => sumOf(after, name, labels) - sumOf(before, name, labels);

  beforeAll(async () => {
    primary = await startPrimary();
    replica = await startReplica(primary);
    api = await startScaledApi(primary.urlFor(DATABASE), {
      DATABASE_REPLICA_URL: replica.urlFor(DATABASE),
      DATABASE_REPLICA_FALLBACK: '1',
      READ_YOUR_WRITES_MS: String(READ_YOUR_WRITES_MS),
      ACCOUNT_WRITE_ATTEMPTS: '2',
    });
    b = bank(api.url);
    ada = await b.signUp();
    expect((await b.deposit(ada, ada.accountId, 50_000)).status).toBe(201);
  }, 180_000);
  afterAll(async () => {
    await bff?.stop();
    await api?.stop();
    await replica?.destroy();
    await primary?.destroy();
  });

  it('serves /metrics on its own port only: the API port answers 404 problem+json', async () => {
    const onApiPort = await fetch(`${api.url}/metrics`);
    expect(onApiPort.status).toBe(404);
    expect(onApiPort.headers.get('content-type')).toMatch(/^application\/problem\+json/);
    expect(((await onApiPort.json()) as { errorCode: string }).errorCode).toBe('NOT_FOUND');
    const text = await (await fetch(api.metricsUrl)).text();
    expect(text).toMatch(/^# HELP tidewater_http_request_duration_seconds /m);
    expect(text).toMatch(/^process_cpu_seconds_total /m);
    const samples = await scrape();
    expect(sumOf(samples, 'tidewater_http_request_duration_seconds_count', { operation: 'deposit', status: '201' })).toBeGreaterThanOrEqual(1);
    expect(sumOf(samples, 'tidewater_idempotency_outcomes_total', { outcome: 'first' })).toBeGreaterThanOrEqual(1);
    expect(sumOf(samples, 'tidewater_pool_connections', { pool: 'primary', state: 'total' })).toBeGreaterThanOrEqual(1);
    expect(sumOf(samples, 'tidewater_readiness_gate_open', { gate: 'primary' })).toBe(1);
    expect(sumOf(samples, 'tidewater_retry_budget_tokens')).toBeGreaterThan(0);
    expect((await fetch(api.metricsUrl.replace('/metrics', '/other'))).status).toBe(404);
  });

  it('counts reads by where they went: read-your-writes to the primary, then the replica, then fallbacks when the replica stops', async () => {
    const reader = await b.signUp();
    await b.openAccount(reader); // a signed-in write: their reads go to the primary for READ_YOUR_WRITES_MS
    const before = await scrape();
    expect((await call(api.url, 'GET', '/api/accounts', { token: reader.token })).status).toBe(200);
    const afterWrite = await scrape();
    expect(moved(before, afterWrite, 'tidewater_reads_total', { served_by: 'primary', reason: 'read_your_writes' })).toBeGreaterThanOrEqual(1);
    await sleep(READ_YOUR_WRITES_MS + 200);
    expect((await call(api.url, 'GET', '/api/accounts', { token: reader.token })).status).toBe(200);
    const afterMark = await scrape();
    expect(moved(afterWrite, afterMark, 'tidewater_reads_total', { served_by: 'replica', reason: 'replica' })).toBeGreaterThanOrEqual(1);
    await replica.stop();
    try {
      await sleep(300);
      for (let i = 0; i < 3; i++) expect((await call(api.url, 'GET', '/api/accounts', { token: reader.token })).status).toBe(200);
      const afterStop = await scrape();
      expect(moved(afterMark, afterStop, 'tidewater_replica_fallbacks_total')).toBeGreaterThanOrEqual(1);
    } finally {
      await replica.start();
    }
  }, 60_000);

  it('counts a contended send: lost lock waits, then a 503 of cause busy_account', async () => {
    const before = await scrape();
    const reply = await holdingAccount(primary.urlFor(DATABASE), ada.accountId, () => b.deposit(ada, ada.accountId, 100, newKey()));
    expect(outcome(reply)).toEqual([503, 'SERVICE_UNAVAILABLE']);
    const after = await scrape();
    expect(moved(before, after, 'tidewater_lost_lock_waits_total')).toBeGreaterThanOrEqual(2);
    expect(moved(before, after, 'tidewater_unavailable_total', { cause: 'busy_account' })).toBe(1);
    expect(moved(before, after, 'tidewater_http_request_duration_seconds_count', { operation: 'deposit', status: '503' })).toBe(1);
  }, 30_000);

  it('shows a stopped primary: the circuit breaker open with waiters and failed probes, breaker waits, 503s by cause', async () => {
    const before = await scrape();
    await primary.stop();
    let during: Sample[] = [];
    try {
      // Writes go to the primary: each waits at the closed gate until its deadline (2.5 s).
      const sends = Array.from({ length: 4 }, () => b.deposit(ada, ada.accountId, 100, newKey()));
      await sleep(1_200);
      during = await scrape();
      const replies = await Promise.all(sends);
      expect(replies.map((reply) => reply.status)).toEqual([503, 503, 503, 503]);
      await sleep(600); // a few more probes
      const after = await scrape();
      expect(sumOf(during, 'tidewater_readiness_gate_open', { gate: 'primary' })).toBe(0);
      expect(sumOf(during, 'tidewater_readiness_gate_waiters', { gate: 'primary' })).toBeGreaterThanOrEqual(1);
      expect(moved(before, after, 'tidewater_readiness_gate_closures_total', { gate: 'primary' })).toBe(1);
      expect(moved(before, after, 'tidewater_readiness_gate_probes_total', { gate: 'primary', outcome: 'failed' })).toBeGreaterThanOrEqual(2);
      expect(moved(before, after, 'tidewater_db_retries_total', { outcome: 'breaker_wait' })).toBeGreaterThanOrEqual(1);
      expect(moved(before, after, 'tidewater_unavailable_total')).toBe(4);
      expect(moved(before, after, 'tidewater_unavailable_total', { cause: 'deadline' })).toBe(4);
    } finally {
      await primary.start();
    }
    for (const giveUpAt = Date.now() + 10_000; Date.now() < giveUpAt; await sleep(100)) {
      if (sumOf(await scrape(), 'tidewater_readiness_gate_open', { gate: 'primary' }) === 1) break;
    }
    const back = await scrape();
    expect(sumOf(back, 'tidewater_readiness_gate_open', { gate: 'primary' })).toBe(1);
    expect(moved(before, back, 'tidewater_readiness_gate_probes_total', { gate: 'primary', outcome: 'ok' })).toBe(1);
    expect((await b.deposit(ada, ada.accountId, 100, newKey())).status).toBe(201);
  }, 60_000);

  it('keeps every label bounded: no ids, emails, keys or URLs', async () => {
    // A request with ids in its path and an unknown path: neither may become a label.
    await call(api.url, 'GET', `/api/accounts/${randomUUID()}`, { token: ada.token });
    await call(api.url, 'GET', `/api/nothing-here/${randomUUID()}`);
    const samples = await scrape();
    const values = samples.flatMap((s) => Object.values(s.labels));
    expect(values.filter((value) => uuid.test(value) || value.includes('@') || value.includes('/'))).toEqual([]);
    const operations = new Set(samples.filter((s) => s.name.startsWith('tidewater_http_')).map((s) => s.labels.operation));
    expect([...operations].every((operation) => operation === 'unknown' || /^[a-z][A-Za-z]+$/.test(operation!))).toBe(true);
    const seriesPerName = new Map<string, number>();
    for (const s of samples) seriesPerName.set(s.name, (seriesPerName.get(s.name) ?? 0) + 1);
    // 20 operations × a few statuses × 16 buckets is the largest: far below what an id per series would make.
    expect(Math.max(...seriesPerName.values())).toBeLessThan(2_000);
    expect(sumOf(samples, 'tidewater_http_request_duration_seconds_count', { operation: 'getAccount', status: '404' })).toBe(1);
  });

  it('the BFF: never on its public port, on its own port by route, and a stopped API as upstream_unreachable', async () => {
    bff = await startBff({ apiUrl: api.url });
    const onPublic = await fetch(`${bff.url}/metrics`);
    expect(await onPublic.text()).not.toMatch(/# HELP|tidewater_/);
    expect(onPublic.headers.get('content-type') ?? '').not.toMatch(/^text\/plain/);
    const handle = uniqueHandle('metrics');
    const who = { email: `${handle}@example.com`, password: 'correct horse battery', displayName: 'Metrics', handle, pin: '2468' };
    const { transport } = await bffTransport(bff.url, who, 30_000);
    expect((await transport.send('GET', '/api/accounts')).status).toBe(200);
    const before = await scrapeMetrics(bff.metricsUrl);
    expect(sumOf(before, 'tidewater_bff_http_request_duration_seconds_count', { route: 'api:listAccounts', status: '200' })).toBeGreaterThanOrEqual(1);
    expect(sumOf(before, 'tidewater_bff_http_request_duration_seconds_count', { route: '/bff/register' })).toBeGreaterThanOrEqual(1);
    await api.stop();
    const reply = await transport.send('GET', '/api/accounts');
    expect(reply.status).toBe(503);
    const after = await scrapeMetrics(bff.metricsUrl);
    expect(moved(before, after, 'tidewater_bff_unavailable_total', { cause: 'upstream_unreachable' })).toBe(1);
    const values = after.flatMap((s) => Object.values(s.labels));
    expect(values.filter((value) => uuid.test(value) || value.includes('@'))).toEqual([]);
  }, 90_000);
});
