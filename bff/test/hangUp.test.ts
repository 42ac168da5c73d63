/**
 * A visitor who hangs up mid-request: the BFF aborts its request to the API (the
 * upstream socket closes at once, seen from a scripted API) and logs the request as 499
 * with its traceId (against the real API, paused so the request is still waiting).
 */
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ApiProcess } from '@tidewater/test-support/apiProcess';
import { startBackend, type Backend } from './support/backend.ts';
import { logEntries, startBff, type BffProcess } from '@tidewater/test-support/bffProcess';
import { Browser, newVisitor, sleep, waitFor } from '@tidewater/test-support/browser';
import { startFakeApi, type FakeApi } from './support/fakeApi.ts';

async function hangUpAfter(browser: Browser, path: string, ms: number, traceId: string): Promise<void> {
  const controller = new AbortController();
  const call = browser.call(path, { headers: { 'x-trace-id': traceId }, signal: controller.signal });
  await sleep(ms);
  controller.abort();
  await expect(call).rejects.toThrow();
}

describe('against a scripted API that never answers', () => {
  let fake: FakeApi;
  let bff: BffProcess;

  beforeAll(async () => {
    fake = await startFakeApi();
    bff = await startBff({ apiUrl: fake.url });
  });
  afterAll(async () => {
    await bff?.stop();
    await fake?.stop();
  });

  it('closes the upstream request as soon as the visitor hangs up', async () => {
    fake.on('GET /api/accounts', () => undefined);
    const browser = new Browser(bff.url);
    await browser.session();
    expect(
      (
        await browser.call('/bff/login', {
          json: { email: 'ada@example.com', password: 'correct horse battery' },
        })
      ).status,
    ).toBe(200);

    const traceId = randomBytes(16).toString('hex');
    await hangUpAfter(browser, '/api/accounts', 400, traceId);
    const hungUpAt = Date.now();
    const upstream = fake.requests.find((r) => r.headers['x-trace-id'] === traceId);
    expect(upstream, 'the request reached the API').toBeDefined();
    await waitFor(() => upstream!.closedEarlyAt !== undefined, 2_000, 'the upstream request closing');
    expect(upstream!.closedEarlyAt! - hungUpAt).toBeLessThan(1_000);
    await waitFor(
      () =>
        logEntries(bff.logLines).some(
          (e) => e.traceId === traceId && (e.res as { statusCode?: number } | undefined)?.statusCode === 499,
        ),
      2_000,
      'the 499 log line',
    );
  });
});

describe('against the real API, paused', () => {
  let backend: Backend;
  let api: ApiProcess;
  let bff: BffProcess;

  beforeAll(async () => {
    backend = await startBackend();
    api = await backend.startApi();
    bff = await startBff({ apiUrl: api.url, env: backend.bffEnv });
  });
  afterAll(async () => {
    await bff?.stop();
    await api?.stop();
    await backend?.destroy();
  });

  it('logs 499 with the traceId and the aborted upstream request, and writes nothing', async () => {
    const browser = new Browser(bff.url);
    await browser.session();
    expect((await browser.call('/bff/register', { json: newVisitor('hangup') })).status).toBe(201);
    const traceId = randomBytes(16).toString('hex');
    api.child.kill('SIGSTOP');
    try {
      await hangUpAfter(browser, '/api/accounts', 500, traceId);
      await waitFor(
        () =>
          logEntries(bff.logLines).some(
            (e) =>
              e.traceId === traceId && (e.res as { statusCode?: number } | undefined)?.statusCode === 499,
          ),
        2_000,
        'the 499 log line',
      );
      const lines = logEntries(bff.logLines).filter((e) => e.traceId === traceId);
      const left = lines.find((e) => e.msg === 'the visitor left; the API may still finish');
      expect(left, lines.map((e) => e.msg).join(' / ')).toMatchObject({ level: 30, traceId });
    } finally {
      api.child.kill('SIGCONT');
    }
    expect((await browser.call('/api/accounts')).status).toBe(200);
  });
});
