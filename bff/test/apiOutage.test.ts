/**
 * The API hung (SIGSTOP) or gone (stopped): the BFF answers its own 503 on time, never
 * signs anyone out for it, and the visitor carries on without signing in again once the
 * API is back. Sign-out that cannot revoke says so and keeps the session. Timing runs
 * scaled down: BFF_UPSTREAM_TIMEOUT_MS=1500.
 *
 * Visitors sign up through a second BFF with the default timeout (sign-up hashes a
 * password and a PIN, which can take longer than 1.5 s on a loaded machine); both BFFs
 * share the PostgreSQL session store, so the session is the same on either.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ApiProcess } from '@tidewater/test-support/apiProcess';
import { startBackend, type Backend } from './support/backend.ts';
import { startBff, type BffProcess } from '@tidewater/test-support/bffProcess';
import { Browser, newVisitor, type Answer } from '@tidewater/test-support/browser';

const upstreamTimeoutMs = 1_500;
let backend: Backend;
let api: ApiProcess;
let bff: BffProcess;
let signUpBff: BffProcess;
const extra: Array<{ stop(): Promise<void> }> = [];

beforeAll(async () => {
  backend = await startBackend();
  api = await backend.startApi();
  bff = await startBff({
    apiUrl: api.url,
    env: { ...backend.bffEnv, BFF_UPSTREAM_TIMEOUT_MS: String(upstreamTimeoutMs) },
  });
  signUpBff = backend.sessionDatabaseUrl ? await startBff({ apiUrl: api.url, env: backend.bffEnv }) : bff;
});
afterAll(async () => {
  for (const process of [bff, signUpBff, ...extra, api]) await process?.stop();
  await backend?.destroy();
});

/** The BFF's own 503: problem+json, Retry-After, no-store, and no `applied` (only the API knows). */
function expectBffUnavailable(answer: Answer): void {
  expect(answer.status, answer.text).toBe(503);
  expect(answer.headers.get('content-type')).toMatch(/^application\/problem\+json/);
  expect(answer.headers.get('retry-after')).toBe('10');
  expect(answer.headers.get('cache-control')).toBe('no-store');
  const body = answer.json();
  expect(body).toMatchObject({
    status: 503,
    errorCode: 'SERVICE_UNAVAILABLE',
    retryAfterSeconds: 10,
    traceId: expect.any(String),
  });
  expect(body).not.toHaveProperty('applied');
  expect(answer.setCookies.filter((line) => line.startsWith('tw_session=;'))).toEqual([]);
}

/** A visitor signed up through `signUpBff`, then using `origin` with the same cookie. */
async function signedInBrowser(origin: string): Promise<Browser> {
  const signUp = new Browser(signUpBff.url);
  await signUp.session();
  const answer = await signUp.call('/bff/register', { json: newVisitor('outage') });
  expect(answer.status, answer.text).toBe(201);
  return sameVisitor(signUp, origin);
}

/** The same cookie jar and CSRF token, on another BFF origin. */
function sameVisitor(browser: Browser, origin: string): Browser {
  const same = new Browser(origin);
  for (const [name, value] of browser.cookies) same.cookies.set(name, value);
  same.csrfToken = browser.csrfToken;
  return same;
}

describe('the API hung (SIGSTOP)', () => {
  it('answers its own 503 at the upstream timeout, keeps the session, and carries on after SIGCONT', async () => {
    const browser = await signedInBrowser(bff.url);
    const accountId = (await browser.call('/api/accounts')).json<{ items: Array<{ id: string }> }>().items[0]!
      .id;
    api.child.kill('SIGSTOP');
    try {
      const read = await browser.call('/api/accounts');
      expectBffUnavailable(read);
      expect(read.elapsedMs).toBeGreaterThanOrEqual(1_400);
      expect(read.elapsedMs).toBeLessThan(4_000);

      const deposit = await browser.call(`/api/accounts/${accountId}/deposits`, {
        json: { amountMinor: 500 },
        headers: { 'idempotency-key': `hung-${Date.now()}` },
      });
      expectBffUnavailable(deposit);
      expect(deposit.elapsedMs).toBeGreaterThanOrEqual(1_400);
      expect(deposit.elapsedMs).toBeLessThan(4_000);

      expect((await browser.session()).json()).toMatchObject({ authenticated: true });
    } finally {
      api.child.kill('SIGCONT');
    }
    const after = await browser.call('/api/accounts');
    expect(after.status, after.text).toBe(200);
    expect(bff.logLines.some((line) => line.includes('"failure":"timeout"'))).toBe(true);
  });
});

describe('the API stopped', () => {
  it('answers 503 (not a sign-out), refuses to sign out while it cannot revoke, and signs out once the API is back', async () => {
    const browser = await signedInBrowser(bff.url);
    await api.stop();

    const read = await browser.call('/api/accounts');
    expectBffUnavailable(read);
    expect(read.elapsedMs).toBeLessThan(1_400); // refused at once: no waiting for the timeout
    expect((await browser.session()).json()).toMatchObject({ authenticated: true });

    const signOut = await browser.call('/bff/logout', { method: 'POST' });
    expectBffUnavailable(signOut);
    expect(signOut.json()).toMatchObject({ detail: "We couldn't sign you out. You're still signed in." });
    expect(browser.cookies.has('tw_session')).toBe(true);
    expect((await browser.session()).json()).toMatchObject({ authenticated: true });

    const ready = await browser.call('/bff/ready');
    expectBffUnavailable(ready);
    expect((await browser.call('/bff/health')).status).toBe(200);

    if (!backend.sessionDatabaseUrl) return; // the rest needs sessions that outlive a BFF process
    // The API comes back (on another port); a new BFF process reads the same session store.
    const apiAgain = await backend.startApi();
    const bffAgain = await startBff({
      apiUrl: apiAgain.url,
      env: { ...backend.bffEnv, BFF_UPSTREAM_TIMEOUT_MS: String(upstreamTimeoutMs) },
    });
    extra.push(bffAgain, apiAgain);
    const same = sameVisitor(browser, bffAgain.url);

    expect((await same.call('/api/accounts')).status).toBe(200);
    const out = await same.call('/bff/logout', { method: 'POST' });
    expect(out.status, out.text).toBe(204);
    expect(same.cookies.has('tw_session')).toBe(false);
    expect((await same.call('/api/accounts')).status).toBe(401);
    expect((await same.session()).json()).toMatchObject({ authenticated: false });
  });
});
