/**
 * Renewing the access token before it expires: concurrent requests share one renewal
 * (against the real API, whose refresh treats a spent token coming back as theft and ends
 * the whole family, so a second renewal would sign the visitor out); only the API's
 * refusal of the refresh token ends the session, a 503 or a slow refresh never does; a
 * renewal slower than the visitor's wait is answered 503 and still kept for the next
 * request (scripted API).
 */
import type { ServerResponse } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ApiProcess } from '@tidewater/test-support/apiProcess';
import { startBackend, type Backend } from './support/backend.ts';
import { startBff, type BffProcess } from '@tidewater/test-support/bffProcess';
import { Browser, newVisitor, sleep } from '@tidewater/test-support/browser';
import { fakeTokenPair, sendJson, startFakeApi, type FakeApi } from './support/fakeApi.ts';
import { startRecordingTap, type RecordingTap } from './support/recordingTap.ts';

describe('against the real API (access tokens live 30 s, so every request renews first)', () => {
  let backend: Backend;
  let api: ApiProcess;
  let tap: RecordingTap;
  let bff: BffProcess;
  /** Renewals the API answered, counted where they pass between the BFF and the API (before the BFF reads them). */
  const refreshes = () =>
    tap.answers.filter((answer) => answer.path === '/api/auth/refresh' && answer.status === 200).length;
  /** The BFF's count of requests that joined another request's renewal. */
  const sharedRenewals = async () => {
    const metrics = await (await fetch(bff.metricsUrl)).text();
    return Number(/^tidewater_bff_renewals_total\{outcome="shared"\} (\d+)$/m.exec(metrics)?.[1] ?? 0);
  };

  beforeAll(async () => {
    backend = await startBackend();
    api = await backend.startApi({ ACCESS_TOKEN_TTL_SECONDS: '30' });
    tap = await startRecordingTap(api.url);
    bff = await startBff({ apiUrl: tap.url, env: backend.bffEnv });
  });
  afterAll(async () => {
    await bff?.stop();
    await tap?.stop();
    await api?.stop();
    await backend?.destroy();
  });

  it('shares one renewal among concurrent requests, and the session survives', async () => {
    const browser = new Browser(bff.url);
    await browser.session();
    expect((await browser.call('/bff/register', { json: newVisitor('renew') })).status).toBe(201);
    const before = refreshes();
    const sharedBefore = await sharedRenewals();

    // The API answers the renewal only once all six requests wait for it. Six requests sent
    // at once need not load the session at once: one that loads it after the renewal was
    // saved holds the new token, which also expires within 60 s, and rightly renews that one.
    const release = tap.hold('POST /api/auth/refresh');
    const answered = Promise.all(Array.from({ length: 6 }, () => browser.call('/api/accounts')));
    const joinedBy = Date.now() + 4_000; // within the visitor's 5 s wait for a renewal
    while ((await sharedRenewals()) - sharedBefore < 5 && Date.now() < joinedBy) await sleep(20);
    release();
    const answers = await answered;
    expect(answers.map((answer) => answer.status)).toEqual([200, 200, 200, 200, 200, 200]);
    expect((await sharedRenewals()) - sharedBefore).toBe(5);
    expect(refreshes() - before).toBe(1);

    // The next requests renew again (the new token also expires within 60 s), one at a time.
    for (let i = 0; i < 3; i++) expect((await browser.call('/api/me')).status).toBe(200);
    expect(refreshes() - before).toBe(4);
    expect((await browser.session()).json()).toMatchObject({ authenticated: true });
  });
});

describe('against a scripted API', () => {
  let fake: FakeApi;
  const started: BffProcess[] = [];

  beforeAll(async () => {
    fake = await startFakeApi(30);
  });
  afterAll(async () => {
    await Promise.all(started.map((bff) => bff.stop()));
    await fake?.stop();
  });

  async function signedIn(env: Record<string, string> = {}): Promise<{ bff: BffProcess; browser: Browser }> {
    const bff = await startBff({ apiUrl: fake.url, env });
    started.push(bff);
    const browser = new Browser(bff.url);
    await browser.session();
    const answer = await browser.call('/bff/login', {
      json: { email: 'ada@example.com', password: 'correct horse battery' },
    });
    expect(answer.status, answer.text).toBe(200);
    return { bff, browser };
  }

  it('keeps the session when the refresh answers 503, and renews on the next request', async () => {
    const { browser } = await signedIn();
    fake.on('POST /api/auth/refresh', (_req, res) => {
      res.setHeader('retry-after', '10');
      sendJson(
        res,
        503,
        {
          type: 'x',
          title: 'down',
          status: 503,
          errorCode: 'SERVICE_UNAVAILABLE',
          traceId: 't',
          retryAfterSeconds: 10,
        },
        'application/problem+json',
      );
    });
    const refused = await browser.call('/api/accounts');
    expect(refused.status).toBe(503);
    expect(refused.json()).toMatchObject({ errorCode: 'SERVICE_UNAVAILABLE', retryAfterSeconds: 10 });
    expect(refused.json()).not.toHaveProperty('applied');
    expect((await browser.session()).json()).toMatchObject({ authenticated: true });

    fake.on('POST /api/auth/refresh', (_req, res) => sendJson(res, 200, fakeTokenPair(30)));
    expect((await browser.call('/api/accounts')).status).toBe(200);
  });

  it('keeps the session when the refresh gets no answer within its budget', async () => {
    const { browser } = await signedIn({ BFF_RENEWAL_TIMEOUT_MS: '800', BFF_RENEWAL_WAIT_MS: '800' });
    fake.on('POST /api/auth/refresh', () => undefined); // hangs
    const refused = await browser.call('/api/accounts');
    expect(refused.status).toBe(503);
    expect(refused.elapsedMs).toBeLessThan(3_000);
    expect((await browser.session()).json()).toMatchObject({ authenticated: true });
  });

  it('ends the session only when the API refuses the refresh token (401)', async () => {
    const { browser } = await signedIn();
    fake.on('POST /api/auth/refresh', (_req, res) =>
      sendJson(
        res,
        401,
        { type: 'x', title: 'no', status: 401, errorCode: 'TOKEN_INVALID', traceId: 't' },
        'application/problem+json',
      ),
    );
    const ended = await browser.call('/api/accounts');
    expect(ended.status).toBe(401);
    expect(ended.json()).toMatchObject({ errorCode: 'UNAUTHENTICATED' });
    expect((await browser.session()).json()).toMatchObject({ authenticated: false, user: null });
    fake.on('POST /api/auth/refresh', (_req, res) => sendJson(res, 200, fakeTokenPair(30)));
  });

  it("answers 503 when the renewal outlasts the visitor's wait, and keeps the late pair for the next request", async () => {
    const { browser } = await signedIn({ BFF_RENEWAL_WAIT_MS: '700', BFF_RENEWAL_TIMEOUT_MS: '10000' });
    const latePair = fakeTokenPair(900); // long-lived: the next request needs no renewal
    const slowRefresh = (_req: unknown, res: ServerResponse) =>
      void setTimeout(() => sendJson(res, 200, latePair), 2_000);
    fake.on('POST /api/auth/refresh', slowRefresh);
    const refreshesBefore = fake.count('POST /api/auth/refresh');

    const waited = await browser.call('/api/accounts');
    expect(waited.status).toBe(503);
    expect(waited.elapsedMs).toBeGreaterThanOrEqual(600);
    expect(waited.elapsedMs).toBeLessThan(1_900);
    expect((await browser.session()).json()).toMatchObject({ authenticated: true });

    await sleep(2_500);
    const accountsBefore = fake.count('GET /api/accounts');
    expect((await browser.call('/api/accounts')).status).toBe(200);
    expect(fake.count('POST /api/auth/refresh') - refreshesBefore).toBe(1);
    const forwarded = fake.requests
      .filter((r) => `${r.method} ${r.path}` === 'GET /api/accounts')
      .slice(accountsBefore);
    expect(forwarded.map((r) => r.headers.authorization)).toEqual([`Bearer ${latePair.accessToken}`]);
    fake.on('POST /api/auth/refresh', (_req, res) => sendJson(res, 200, fakeTokenPair(30)));
  });
});
