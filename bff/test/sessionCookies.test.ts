/**
 * The session's cookies and CSRF token (adr/0043), through the real BFF to the real API,
 * sessions in PostgreSQL:
 * - a visitor who is not signed in writes no session row, however often they look;
 * - the CSRF token seen before sign-in is refused after it (rotated at sign-in);
 * - a BFF that is not explicitly local (here: behind a trusted TLS proxy) names its
 *   cookies `__Host-…` and makes them Secure, with no Domain and Path=/;
 * - the device token rides in its own cookie to the next sign-in: a stranger's failures
 *   of the visitor's email do not hold that browser back, at a new address too;
 * - sign-ups are limited per visitor address (the BFF passes it on), not per BFF.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ApiProcess } from '@tidewater/test-support/apiProcess';
import { startBff, type BffProcess } from '@tidewater/test-support/bffProcess';
import { Browser, newVisitor, type CallOptions } from '@tidewater/test-support/browser';
import { call } from '@tidewater/test-support/httpClient';
import { startBackend, type Backend } from './support/backend.ts';

let backend: Backend;
let api: ApiProcess;
let localBff: BffProcess;
let proxiedBff: BffProcess;

beforeAll(async () => {
  backend = await startBackend();
  // Three sign-ups a minute per address: enough for each test's visitors, few enough to flood.
  api = await backend.startApi({ REGISTER_ADDRESS_LIMIT: '3' });
  [localBff, proxiedBff] = await Promise.all([
    startBff({ apiUrl: api.url, env: backend.bffEnv }),
    startBff({ apiUrl: api.url, env: { ...backend.bffEnv, BFF_TRUST_PROXY: 'loopback' } }),
  ]);
}, 120_000);
afterAll(async () => {
  await localBff?.stop();
  await proxiedBff?.stop();
  await api?.stop();
  await backend?.destroy();
});

/** A browser that reaches the BFF through a TLS proxy on this machine (X-Forwarded-Proto: https), from `address`. */
class BrowserOverTls extends Browser {
  address = '203.0.113.1';
  override call(path: string, options: CallOptions = {}) {
    return super.call(path, { ...options, headers: { 'x-forwarded-proto': 'https', 'x-forwarded-for': this.address, ...options.headers } });
  }
}

describe('a visitor who is not signed in', () => {
  it('writes no session row, with or without cookies, however often they look', async () => {
    expect(backend.sessionDatabaseUrl, 'sessions in PostgreSQL').toBeDefined();
    const before = (await backend.sessionRows()).length;
    for (let i = 0; i < 5; i++) expect((await fetch(`${localBff.url}/bff/session`)).status).toBe(200);
    const returning = new Browser(localBff.url);
    for (let i = 0; i < 3; i++) expect((await returning.session()).status).toBe(200);
    // The token stays the same for this browser: its signed cookie holds it.
    const token = returning.csrfToken;
    expect((await returning.session()).json()).toMatchObject({ csrfToken: token, authenticated: false });
    expect((await returning.call('/bff/session/keepalive', { method: 'POST' })).status).toBe(200);
    expect((await backend.sessionRows()).length).toBe(before);
    expect(returning.cookies.has('tw_session')).toBe(false);
  });

  it('signs in with that token, and is refused it after sign-in (the token was rotated)', async () => {
    const visitor = newVisitor('rotate');
    const browser = new Browser(localBff.url);
    await browser.session();
    const before = browser.csrfToken!;
    expect((await browser.call('/bff/register', { json: visitor })).status).toBe(201);
    expect((await browser.call('/bff/session/keepalive', { method: 'POST', csrf: before })).status).toBe(403);
    expect((await browser.call('/bff/logout', { method: 'POST', csrf: before })).status).toBe(403);

    const after = (await browser.session()).json<{ csrfToken: string; authenticated: boolean }>();
    expect(after.authenticated).toBe(true);
    expect(after.csrfToken).not.toBe(before);
    expect((await browser.call('/bff/session/keepalive', { method: 'POST' })).status).toBe(200);

    // Signing in again (over a signed-in session) rotates it again.
    const signIn = await browser.call('/bff/login', { json: { email: visitor.email, password: visitor.password } });
    expect(signIn.status, signIn.text).toBe(200);
    expect((await browser.call('/bff/session/keepalive', { method: 'POST', csrf: after.csrfToken })).status).toBe(403);
  });
});

describe('cookies on a BFF that is not explicitly local', () => {
  it('are __Host- prefixed and Secure, for the whole host (Path=/, no Domain)', async () => {
    const browser = new BrowserOverTls(proxiedBff.url);
    const first = await browser.session();
    expect(first.setCookies).toHaveLength(1);
    expect(first.setCookies[0]).toMatch(/^__Host-tw_csrf=[^;]+; Path=\/; HttpOnly; Secure; SameSite=Strict$/);

    const visitor = newVisitor('hostcookie');
    const signUp = await browser.call('/bff/register', { json: visitor });
    expect(signUp.status, signUp.text).toBe(201);
    const session = signUp.setCookies.find((line) => line.startsWith('__Host-tw_session='));
    expect(session).toMatch(/; Path=\/; Expires=[^;]+; HttpOnly; Secure; SameSite=Strict$/);
    expect(session).not.toMatch(/Domain=/i);
    expect(signUp.setCookies.some((line) => line.startsWith('tw_session='))).toBe(false);
    // The pre-sign-in token's cookie is dropped.
    expect(signUp.setCookies.some((line) => /^__Host-tw_csrf=;/.test(line))).toBe(true);

    await browser.session();
    expect((await browser.call('/api/me')).json()).toMatchObject({ email: visitor.email });
    const out = await browser.call('/bff/logout', { method: 'POST' });
    expect(out.status).toBe(204);
    expect(out.setCookies.some((line) => /^__Host-tw_session=;.*Secure/.test(line))).toBe(true);
  });
});

describe('the device cookie', () => {
  it('takes the browser past a stranger\'s failures of its email, at a new address; a browser without it waits', async () => {
    const visitor = newVisitor('device');
    const browser = new BrowserOverTls(proxiedBff.url);
    await browser.session();
    const signUp = await browser.call('/bff/register', { json: visitor });
    expect(signUp.status, signUp.text).toBe(201);
    const device = signUp.setCookies.find((line) => line.startsWith('__Host-tw_device='));
    expect(device).toMatch(/^__Host-tw_device=[A-Za-z0-9_-]{43}; Max-Age=7776000; Path=\/; Expires=[^;]+; HttpOnly; Secure; SameSite=Strict$/);
    expect((await browser.call('/bff/logout', { method: 'POST' })).status).toBe(204);

    // A stranger fails the email from a dozen addresses, straight at the API.
    for (let i = 0; i < 12; i++)
      await call(api.url, 'POST', '/api/auth/token', { body: { email: visitor.email, password: 'wrong password' }, headers: { 'x-forwarded-for': `198.51.100.${i}` } });

    browser.address = '203.0.113.50';
    await browser.session();
    const known = await browser.call('/bff/login', { json: { email: visitor.email, password: visitor.password } });
    expect(known.status, known.text).toBe(200);

    const stranger = new BrowserOverTls(proxiedBff.url);
    stranger.address = '203.0.113.51';
    await stranger.session();
    const unknown = await stranger.call('/bff/login', { json: { email: visitor.email, password: visitor.password } });
    expect([unknown.status, unknown.json().errorCode]).toEqual([429, 'TOO_MANY_REQUESTS']);
  });
});

describe('sign-ups through the BFF', () => {
  it('are limited per visitor address, not per BFF', async () => {
    const flood = new BrowserOverTls(proxiedBff.url);
    flood.address = '203.0.113.70';
    await flood.session();
    const statuses: number[] = [];
    for (let i = 0; i < 4; i++) statuses.push((await flood.call('/bff/register', { json: newVisitor('flood') })).status);
    expect(statuses).toEqual([201, 201, 201, 429]);
    const elsewhere = new BrowserOverTls(proxiedBff.url);
    elsewhere.address = '203.0.113.71';
    await elsewhere.session();
    const answer = await elsewhere.call('/bff/register', { json: newVisitor('elsewhere') });
    expect(answer.status, answer.text).toBe(201);
  });
});
