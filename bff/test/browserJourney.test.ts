/**
 * A visitor's journey through the real BFF to the real API (PostgreSQL, sessions in
 * PostgreSQL), as a browser makes it: a cookie jar and the CSRF header, nothing else.
 * Proves the routes' contract, that the API's answers pass through untouched, and that no
 * answer ever carries an access or refresh token.
 */
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ApiProcess } from '@tidewater/test-support/apiProcess';
import { startBackend, type Backend } from './support/backend.ts';
import { startBff, type BffProcess } from '@tidewater/test-support/bffProcess';
import { Browser, newVisitor, waitFor } from '@tidewater/test-support/browser';
import { startRecordingTap, type RecordingTap } from './support/recordingTap.ts';

const jwtPattern = /eyJ[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+/;
/** A 256-bit base64url value, the API's refresh-token shape. */
const refreshShape = /(?<![A-Za-z0-9_-])[A-Za-z0-9_-]{43}(?![A-Za-z0-9_-])/g;

let backend: Backend;
let api: ApiProcess;
let bff: BffProcess;
let tap: RecordingTap; // between the BFF and the API: records exactly what the API answered

beforeAll(async () => {
  backend = await startBackend();
  api = await backend.startApi();
  tap = await startRecordingTap(api.url);
  bff = await startBff({ apiUrl: tap.url, env: backend.bffEnv });
});
afterAll(async () => {
  await bff?.stop();
  await tap?.stop();
  await api?.stop();
  await backend?.destroy();
});

describe('a browser through the BFF', () => {
  const visitor = newVisitor('journey');
  const browser = () => journey;
  let journey: Browser;
  /** Every token the session store held for this browser (PostgreSQL sessions only). */
  const heldTokens = new Set<string>();
  async function captureTokens(): Promise<void> {
    const row = (await backend.sessionRows()).find((candidate) => candidate.sid === journey.sessionId());
    const auth = row && backend.openAuth(row.sess);
    if (auth) [auth.accessToken, auth.refreshToken].forEach((token) => heldTokens.add(token));
  }

  it('gets an anonymous session with a CSRF token, without sliding anything', async () => {
    journey = new Browser(bff.url);
    const first = await journey.session();
    expect(first.status).toBe(200);
    expect(first.json()).toEqual({
      authenticated: false,
      user: null,
      csrfToken: expect.stringMatching(/^[A-Za-z0-9_-]{43}$/),
      idleTimeoutSeconds: 900,
      idleExpiresInSeconds: null,
    });
    expect(first.headers.get('cache-control')).toBe('no-store');
    // No session yet (nothing to keep): the CSRF token's signed cookie only.
    expect(first.setCookies.filter((line) => line.startsWith('tw_session='))).toEqual([]);
    const cookie = first.setCookies.find((line) => line.startsWith('tw_csrf='));
    expect(cookie).toMatch(/HttpOnly/i);
    expect(cookie).toMatch(/SameSite=Strict/i);
    expect(cookie).not.toMatch(/Secure/i); // a BFF on loopback trusting no proxy is explicitly local: plain http
    const again = await journey.session();
    expect(again.json()).toMatchObject({ csrfToken: first.json().csrfToken });
  });

  it('signs up: 201 { user, account }, a new session id, signed in', async () => {
    const before = browser().cookies.get('tw_session');
    const answer = await browser().call('/bff/register', { json: visitor });
    expect(answer.status, answer.text).toBe(201);
    const body = answer.json<{ user: { email: string }; account: { name: string; isPrimary: boolean } }>();
    expect(Object.keys(body).sort()).toEqual(['account', 'user']);
    expect(body.user.email).toBe(visitor.email);
    expect(body.account).toMatchObject({ name: 'Everyday', isPrimary: true });
    expect(browser().cookies.get('tw_session')).not.toBe(before);
    const state = (await browser().session()).json();
    expect(state).toMatchObject({
      authenticated: true,
      user: { email: visitor.email, handle: visitor.handle },
    });
    expect(state.idleExpiresInSeconds).toBeGreaterThan(890);
    await captureTokens();
  });

  it('lists accounts and reads /api/me through the proxy', async () => {
    const accounts = await browser().call('/api/accounts');
    expect(accounts.status, accounts.text).toBe(200);
    expect(accounts.json<{ items: unknown[] }>().items).toHaveLength(1);
    const me = await browser().call('/api/me');
    expect(me.status).toBe(200);
    expect(me.json()).toMatchObject({ email: visitor.email });
    expect(me.headers.get('x-trace-id')).toBeTruthy();
  });

  it('forwards an X-Trace-Id the visitor proposes (a W3C trace id), and the API logs it', async () => {
    const traceId = randomBytes(16).toString('hex');
    const me = await browser().call('/api/me', { headers: { 'x-trace-id': traceId } });
    expect(me.headers.get('x-trace-id')).toBe(traceId);
    await waitFor(
      () => api.logLines.some((line) => line.includes(traceId)),
      5_000,
      'the API logging the traceId',
    );
    await waitFor(
      () => bff.logLines.some((line) => line.includes(traceId)),
      5_000,
      'the BFF logging the traceId',
    );
  });

  it('signs out (204, cookie cleared) and back in (200 { user }, a new session id)', async () => {
    const out = await browser().call('/bff/logout', { method: 'POST' });
    expect(out.status, out.text).toBe(204);
    expect(out.setCookies.some((line) => /^tw_session=;/.test(line))).toBe(true);
    expect(browser().cookies.has('tw_session')).toBe(false);
    expect((await browser().call('/api/me')).status).toBe(401);

    await browser().session();
    const anonymousId = browser().cookies.get('tw_session');
    const signIn = await browser().call('/bff/login', {
      json: { email: visitor.email, password: visitor.password },
    });
    expect(signIn.status, signIn.text).toBe(200);
    expect(signIn.json()).toEqual({ user: expect.objectContaining({ email: visitor.email }) });
    expect(browser().cookies.get('tw_session')).not.toBe(anonymousId);
    expect(browser().cookies.get('tw_session')).toBeTruthy();
    // The CSRF token was rotated at sign-in: the SPA reads the new one, as here.
    await browser().session();
    expect((await browser().call('/api/me')).status).toBe(200);
    await captureTokens();
  });

  it("passes the API's answer to a deposit through untouched (501 while deposits are not built)", async () => {
    const accountId = (await browser().call('/api/accounts')).json<{ items: Array<{ id: string }> }>()
      .items[0]!.id;
    const traceId = randomBytes(16).toString('hex');
    const viaBff = await browser().call(`/api/accounts/${accountId}/deposits`, {
      json: { amountMinor: 1250 },
      headers: { 'idempotency-key': `key-${Date.now()}`, 'x-trace-id': traceId },
    });
    const sent = tap.answers.find((answer) => answer.headers['x-trace-id'] === traceId);
    expect(sent, 'the API answered the deposit').toBeDefined();

    expect([200, 201, 501]).toContain(viaBff.status);
    expect(viaBff.status).toBe(sent!.status);
    expect(viaBff.text).toBe(sent!.body.toString('utf8'));
    for (const name of ['content-type', 'content-length', 'retry-after', 'x-trace-id']) {
      expect(viaBff.headers.get(name), name).toBe((sent!.headers[name] as string | undefined) ?? null);
    }
    // A bank's answer is never cached, and the BFF's security headers stand, whatever the API sent.
    expect(viaBff.headers.get('cache-control')).toBe('no-store');
    expect(viaBff.headers.get('x-frame-options')).toBe('DENY');
    if (viaBff.status === 501) expect(viaBff.json()).toMatchObject({ errorCode: 'NOT_IMPLEMENTED', traceId });
  });

  it("passes the API's 401 for a wrong password through as its problem, and keeps auth routes off the proxy", async () => {
    const stranger = new Browser(bff.url);
    await stranger.session();
    const wrong = await stranger.call('/bff/login', {
      json: { email: visitor.email, password: 'not the password' },
    });
    expect(wrong.status).toBe(401);
    expect(wrong.headers.get('content-type')).toMatch(/^application\/problem\+json/);
    expect(wrong.json()).toMatchObject({ status: 401, errorCode: 'INVALID_CREDENTIALS' });
    expect((await stranger.session()).json()).toMatchObject({ authenticated: false });

    for (const path of [
      '/api/auth/token',
      '/api/AUTH/refresh',
      '/api//auth/revoke',
      '/api/accounts/../auth/token',
      '/api/%61uth/token',
    ]) {
      const answer = await browser().call(path, {
        json: { email: visitor.email, password: visitor.password },
      });
      expect(answer.status, path).toBe(404);
      expect(answer.json(), path).toMatchObject({ errorCode: 'NOT_FOUND' });
    }
  });

  it('never lets an access or refresh token reach the browser', async () => {
    await captureTokens();
    const tokens = [...heldTokens];
    if (backend.sessionDatabaseUrl) expect(tokens.length).toBeGreaterThanOrEqual(4); // two sign-ins, two tokens each
    const exchanges = [...browser().exchanges];
    expect(exchanges.length).toBeGreaterThan(10);
    for (const exchange of exchanges) {
      const everything = [
        exchange.body,
        ...exchange.headers.map(([name, value]) => `${name}: ${value}`),
      ].join('\n');
      for (const token of tokens)
        expect(everything.includes(token), `${exchange.method} ${exchange.path}`).toBe(false);
      expect(everything, `${exchange.method} ${exchange.path}`).not.toMatch(jwtPattern);
      for (const line of exchange.setCookies) {
        expect(line).toMatch(/^(tw_session|tw_csrf|tw_device)=/);
        const [name, rest] = [line.slice(0, line.indexOf('=')), line.slice(line.indexOf('=') + 1)];
        const value = decodeURIComponent(rest.split(';')[0] ?? '');
        // The session cookie is the signed session id (s:<id>.<signature>), the CSRF cookie a signed token, the device cookie the device token (adr/0043).
        if (value !== '' && name === 'tw_session') expect(value).toMatch(/^s:[A-Za-z0-9_-]{32}\.[A-Za-z0-9+/]{43}$/);
        if (value !== '' && name === 'tw_csrf') expect(value).toMatch(/^[A-Za-z0-9_-]{43}\.[A-Za-z0-9_-]{43}$/);
        if (value !== '' && name === 'tw_device') expect(value).toMatch(/^[A-Za-z0-9_-]{43}$/);
      }
      // The only 43-character base64url value a body may carry is the CSRF token.
      const found = exchange.body.match(refreshShape) ?? [];
      for (const value of found)
        expect(value, `${exchange.method} ${exchange.path}`).toBe(JSON.parse(exchange.body).csrfToken);
    }
  });
});
