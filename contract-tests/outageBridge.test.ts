/**
 * A database outage under live traffic, seen from the wire between the API and PostgreSQL
 * (adr/0011: the circuit breaker). The API reaches PostgreSQL through a TCP proxy that
 * counts every connection the API opens, i.e. every login it tries.
 *
 * - 20 clients keep reading while the database is stopped for 8 s: the API tries about
 *   one login per second (its probe), not one per request and retry.
 * - A read sent into an outage shorter than its deadline answers 200 once the database is
 *   back, having spent no retry: the reader never sees the outage.
 *
 * The chain is the scaled one with a 6 s deadline (so an outage of 2 s fits in it) and the
 * real 1 s probe interval.
 */
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bank, type Bank, type Customer } from '@tidewater/test-support/bank';
import { call } from '@tidewater/test-support/httpClient';
import { startPrimary, type PgCluster } from '@tidewater/test-support/pgCluster';
import { startScaledApi } from './support/scaledApi.ts';
import { startTcpProxy, type TcpProxy } from '@tidewater/test-support/tcpProxy';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const PROBE_MS = 1_000;

describe('a database outage under live traffic', () => {
  let cluster: PgCluster;
  let proxy: TcpProxy;
  let api: Awaited<ReturnType<typeof startScaledApi>>;
  let b: Bank;
  let ada: Customer;

  beforeAll(async () => {
    cluster = await startPrimary();
    proxy = await startTcpProxy({ host: '127.0.0.1', port: cluster.port });
    api = await startScaledApi(proxy.urlFor(cluster.urlFor('tidewater')), { REQUEST_DEADLINE_MS: '6000', DB_READINESS_PROBE_MS: String(PROBE_MS) });
    b = bank(api.url);
    ada = await b.signUp();
  }, 120_000);
  afterAll(async () => {
    await api?.stop();
    await proxy?.close();
    await cluster?.destroy();
  });

  const readAccounts = (traceId = randomBytes(16).toString('hex')) =>
    call(api.url, 'GET', '/api/accounts', { token: ada.token, headers: { 'x-trace-id': traceId } }).then((reply) => ({ ...reply, traceId }));

  it('tries about one login per second while the database is down, however many clients read', async () => {
    let running = true;
    const statuses = new Set<number>();
    const readers = Array.from({ length: 20 }, async () => {
      while (running) statuses.add((await readAccounts()).status);
    });
    await sleep(500);
    await cluster.stop();
    await sleep(1_000); // the pool drops its connections and the first logins fail: then the circuit breaker holds
    const before = proxy.stats().accepted;
    const startedAt = Date.now();
    await sleep(8_000);
    const logins = proxy.stats().accepted - before;
    const seconds = (Date.now() - startedAt) / 1_000;
    await cluster.start();
    const backAt = Date.now();
    while (Date.now() - backAt < 3_000 && (await readAccounts()).status !== 200) await sleep(50);
    const firstOkMs = Date.now() - backAt;
    running = false;
    await Promise.all(readers);
    console.log(`outage of ${seconds.toFixed(1)} s with 20 readers: ${logins} logins (${(logins / seconds).toFixed(2)}/s); 200 again ${firstOkMs} ms after the database was back`);
    expect(logins).toBeLessThanOrEqual(Math.ceil(seconds * (1_000 / PROBE_MS)) + 2);
    expect(logins).toBeGreaterThanOrEqual(Math.floor(seconds / 2)); // it does keep probing
    expect(firstOkMs).toBeLessThan(PROBE_MS + 1_000);
    expect([...statuses].filter((status) => status !== 200 && status !== 503)).toEqual([]);
    expect(api.child.exitCode).toBeNull();
  });

  it('answers a read sent into an outage shorter than its deadline once the database is back, with no retry', async () => {
    await cluster.stop();
    const started = Date.now();
    const read = readAccounts();
    await sleep(2_000);
    await cluster.start();
    const reply = await read;
    const tookMs = Date.now() - started;
    expect(reply.status).toBe(200);
    expect(tookMs).toBeGreaterThanOrEqual(2_000);
    expect(tookMs).toBeLessThan(2_000 + PROBE_MS + 1_500);
    const lines = api.logLines.filter((line) => line.includes(reply.traceId));
    expect(lines.filter((line) => /"retry":\d/.test(line))).toEqual([]);
    expect(lines.some((line) => /"breakerWait":1/.test(line))).toBe(true);
  });
});
