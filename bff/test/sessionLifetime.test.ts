/**
 * How a session is protected and how it ends, against the real API: every write needs
 * the session's CSRF token (403 otherwise, and nothing reaches the API); a signed-in
 * session unused for SESSION_IDLE_TIMEOUT_MS ends (401 on /api/*, authenticated:false),
 * its refresh token revoked; GET /bff/session does not slide the timer, keep-alive and
 * proxied requests do. Timeouts scaled down to 1.5 s and 3 s.
 */
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ApiProcess } from '@tidewater/test-support/apiProcess';
import { startBackend, type Backend } from './support/backend.ts';
import { startBff, type BffProcess } from '@tidewater/test-support/bffProcess';
import { Browser, newVisitor, sleep, waitFor, type Answer } from '@tidewater/test-support/browser';

let backend: Backend;
let api: ApiProcess;
let quick: BffProcess; // idle timeout 1.5 s
let slower: BffProcess; // idle timeout 3 s

beforeAll(async () => {
  backend = await startBackend();
  api = await backend.startApi();
  // One after the other: if the second cannot start, the first is already assigned and stopped.
  quick = await startBff({ apiUrl: api.url, env: { ...backend.bffEnv, SESSION_IDLE_TIMEOUT_MS: '1500' } });
  slower = await startBff({ apiUrl: api.url, env: { ...backend.bffEnv, SESSION_IDLE_TIMEOUT_MS: '3000' } });
});
afterAll(async () => {
  await Promise.all([quick?.stop(), slower?.stop()]);
  await api?.stop();
  await backend?.destroy();
});

function expectProblem(answer: Answer, status: number, errorCode: string): void {
  expect(answer.status, answer.text).toBe(status);
  expect(answer.headers.get('content-type')).toMatch(/^application\/problem\+json/);
  expect(answer.json()).toMatchObject({ status, errorCode, traceId: expect.any(String) });
}

/** Signs a new visitor up; resolves when the answer arrived (the timer's start). */
async function signedIn(
  origin: string,
): Promise<{ browser: Browser; signedInAt: number; accountId: string }> {
  const browser = new Browser(origin);
  await browser.session();
  const answer = await browser.call('/bff/register', { json: newVisitor('life') });
  expect(answer.status, answer.text).toBe(201);
  return {
    browser,
    signedInAt: Date.now(),
    accountId: answer.json<{ account: { id: string } }>().account.id,
  };
}

/** Waits until `ms` after `since`. */
const until = (since: number, ms: number) => sleep(Math.max(0, since + ms - Date.now()));

describe('CSRF', () => {
  it('refuses every write without the session token, 403 problem+json, before anything reaches the API', async () => {
    const { browser, accountId } = await signedIn(slower.url);
    const other = new Browser(slower.url);
    await other.session();
    const forged = [
      ['/bff/session/keepalive', { method: 'POST', csrf: false }],
      ['/bff/logout', { method: 'POST', csrf: other.csrfToken! }],
      ['/bff/login', { json: { email: 'a@example.com', password: 'whatever12' }, csrf: 'not-the-token' }],
      ['/bff/register', { json: newVisitor('forged'), csrf: false }],
      [
        `/api/accounts/${accountId}/deposits`,
        { json: { amountMinor: 100 }, headers: { 'idempotency-key': 'forged-key-1' }, csrf: false },
      ],
      [
        `/api/accounts/${accountId}/deposits`,
        {
          json: { amountMinor: 100 },
          headers: { 'idempotency-key': 'forged-key-2' },
          csrf: other.csrfToken!,
        },
      ],
      ['/api/accounts', { json: { name: 'Forged' }, csrf: '' }],
    ] as const;
    const traceIds: string[] = [];
    for (const [path, options] of forged) {
      const traceId = randomBytes(16).toString('hex'); // a W3C trace id: the API would log it as its own
      traceIds.push(traceId);
      const answer = await browser.call(path, {
        ...options,
        headers: { ...('headers' in options ? options.headers : {}), 'x-trace-id': traceId },
      });
      expectProblem(answer, 403, 'FORBIDDEN');
    }
    // A session-less visitor cannot write either.
    const stranger = new Browser(slower.url);
    expectProblem(
      await stranger.call('/bff/login', {
        json: { email: 'a@example.com', password: 'whatever12' },
        csrf: 'x',
      }),
      403,
      'FORBIDDEN',
    );

    expect((await browser.session()).json()).toMatchObject({ authenticated: true });
    await sleep(300);
    for (const traceId of traceIds) expect(api.logLines.some((line) => line.includes(traceId))).toBe(false);
    // Reads need no token; the right token works.
    expect((await browser.call('/api/accounts', { csrf: false })).status).toBe(200);
    expect((await browser.call('/bff/session/keepalive', { method: 'POST' })).status).toBe(200);
  });
});

// The three cases on the 3 s timeout wait side by side, each on a session of its own; the
// first runs alone before them, so the revoke it waits for can only be its own session's.
describe('the inactivity timeout', () => {
  it('ends an unused session: 401 problem+json on /api/*, authenticated:false, its refresh token revoked', async () => {
    const { browser, signedInAt } = await signedIn(quick.url);
    const stored = (await backend.sessionRows()).find((row) => row.sid === browser.sessionId());
    const revokesBefore = api.logLines.filter((line) => line.includes('/api/auth/revoke')).length;
    await until(signedInAt, 2_000);
    expectProblem(await browser.call('/api/accounts'), 401, 'UNAUTHENTICATED');
    expectProblem(await browser.call('/api/accounts', { json: { name: 'Late' } }), 401, 'UNAUTHENTICATED');
    const state = (await browser.session()).json();
    expect(state).toMatchObject({
      authenticated: false,
      user: null,
      idleExpiresInSeconds: null,
      idleTimeoutSeconds: 1.5,
    });

    if (!stored) return; // PostgreSQL sessions only: the token's fate is checked at the API
    const refreshToken = backend.openAuth(stored.sess)!.refreshToken;
    // The revoke runs in the background once the session ended; the API logs it.
    await waitFor(
      () => api.logLines.filter((line) => line.includes('/api/auth/revoke')).length > revokesBefore,
      5_000,
      'the revoke',
    );
    const refresh = await fetch(`${api.url}/api/auth/refresh`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ refreshToken }),
    });
    expect(refresh.status).toBe(401);
  });

  it.concurrent('is not slid by GET /bff/session', async () => {
    const { browser, signedInAt } = await signedIn(slower.url);
    await until(signedInAt, 1_500);
    const polled = (await browser.session()).json<{ authenticated: boolean; idleExpiresInSeconds: number }>();
    expect(polled.authenticated).toBe(true);
    expect(polled.idleExpiresInSeconds).toBeLessThanOrEqual(2);
    await until(signedInAt, 3_800);
    expectProblem(await browser.call('/api/accounts'), 401, 'UNAUTHENTICATED');
  });

  it.concurrent('is slid by keep-alive', async () => {
    const { browser, signedInAt } = await signedIn(slower.url);
    await until(signedInAt, 1_800);
    const kept = await browser.call('/bff/session/keepalive', { method: 'POST' });
    expect(kept.status).toBe(200);
    expect(kept.json()).toMatchObject({
      authenticated: true,
      idleExpiresInSeconds: 3,
      idleTimeoutSeconds: 3,
    });
    await until(signedInAt, 3_800);
    expect((await browser.call('/api/accounts')).status).toBe(200);
  });

  it.concurrent('is slid by proxied requests', async () => {
    const { browser, signedInAt } = await signedIn(slower.url);
    await until(signedInAt, 1_800);
    expect((await browser.call('/api/me')).status).toBe(200);
    await until(signedInAt, 3_800);
    expect((await browser.call('/api/accounts')).status).toBe(200);
  });
});
