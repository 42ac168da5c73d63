/**
 * Ordinary traffic through the BFF raises no MaxListenersExceededWarning: a proxied
 * answer once carried eleven 'close' listeners on its response (stream.pipeline's seven
 * and the BFF's own four), one warning per answer. The BFF runs in this process, so its
 * warnings reach `process.on('warning')`.
 */
import type { AddressInfo } from 'node:net';
import { pino } from 'pino';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { Browser } from '@tidewater/test-support/browser';
import { createApp } from '../src/app.ts';
import { loadConfig } from '../src/config.ts';
import { openSessionStore } from '../src/session/sessionStore.ts';
import { createApiClient } from '../src/upstream/apiClient.ts';
import { createRenewals } from '../src/upstream/renewals.ts';
import { refreshWithApi } from '../src/upstream/tokenCalls.ts';
import { sendJson, startFakeApi, type FakeApi } from './support/fakeApi.ts';

let fake: FakeApi;
let server: ReturnType<ReturnType<typeof createApp>['listen']>;
let origin: string;
let closeDeps: () => Promise<void>;

beforeAll(async () => {
  fake = await startFakeApi();
  const config = loadConfig({ API_URL: fake.url, LOG_LEVEL: 'silent' });
  const logger = pino({ level: 'silent' });
  const sessionStore = await openSessionStore(config, logger);
  const api = createApiClient(config.apiUrl);
  const renewals = createRenewals(refreshWithApi(api, config.renewalTimeoutMs), config.renewalReuseMs);
  server = createApp({ config, logger, api, sessionStore, renewals }).listen(0, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  closeDeps = async () => {
    await api.close();
    await sessionStore.close();
  };
});
afterAll(async () => {
  server?.closeAllConnections();
  await new Promise((resolve) => server?.close(resolve));
  await closeDeps?.();
  await fake?.stop();
});

it('serves a few hundred proxied reads and writes without a MaxListenersExceededWarning', async () => {
  const warnings: string[] = [];
  const onWarning = (warning: Error) => {
    if (warning.name === 'MaxListenersExceededWarning') warnings.push(warning.message);
  };
  process.on('warning', onWarning);
  try {
    fake.on('POST /api/accounts', (_req, res) => sendJson(res, 201, { id: 'a1', name: 'Holidays' }));
    const browser = new Browser(origin);
    await browser.session();
    expect((await browser.call('/bff/login', { json: { email: 'ada@example.com', password: 'correct horse battery' } })).status).toBe(200);
    for (let round = 0; round < 25; round++) {
      const answers = await Promise.all([
        ...Array.from({ length: 6 }, () => browser.call('/api/accounts')),
        browser.call('/api/accounts', { json: { name: 'Holidays' }, headers: { 'idempotency-key': `k-${round}` } }),
        browser.call('/bff/session'),
      ]);
      expect(answers.map((answer) => answer.status)).toEqual([200, 200, 200, 200, 200, 200, 201, 200]);
    }
    // A warning is emitted on the next tick of the listener that passed the limit.
    await new Promise((resolve) => setImmediate(resolve));
  } finally {
    process.off('warning', onWarning);
  }
  expect(warnings).toEqual([]);
});

it('still breaks the visitor\'s answer off when the API\'s breaks off midway', async () => {
  fake.on('GET /api/accounts/broken', (_req, res) => {
    res.writeHead(200, { 'content-type': 'application/json', 'content-length': '1000' });
    res.write('{"items":[');
    setTimeout(() => res.destroy(), 50);
  });
  const browser = new Browser(origin);
  await browser.session();
  expect((await browser.call('/bff/login', { json: { email: 'ada@example.com', password: 'correct horse battery' } })).status).toBe(200);
  await expect(browser.call('/api/accounts/broken')).rejects.toThrow();
});
