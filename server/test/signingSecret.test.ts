/**
 * The server never runs on a secret a stranger can read in the source (adr/0012): on the
 * embedded default it makes one, keeps it beside the data (0600) and keeps using it; with
 * a server database it refuses to start without JWT_SECRET (or PIN_PEPPER, kept the same way); a token signed with anything
 * else, or naming no user, is 401.
 */
import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SignJWT } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startApi, type ApiProcess } from '@tidewater/test-support/apiProcess';
import { call } from '@tidewater/test-support/httpClient';
import { uniqueHandle } from '@tidewater/test-support/handles';

/** An HS256 token as the API would sign one, for any `sub`, with `secret`. */
const forge = (secret: string, sub: string) =>
  new SignJWT({ fam: '00000000-0000-4000-8000-000000000000' })
    .setProtectedHeader({ alg: 'HS256' })
    .setSubject(sub)
    .setIssuer('tidewater-api')
    .setIssuedAt()
    .setExpirationTime('100y')
    .sign(new TextEncoder().encode(secret));

describe('the signing secret on the embedded database', () => {
  let dir: string;
  let api: ApiProcess;
  let visitor: { token: string; userId: string; accountId: string };

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'tidewater-secret-'));
    api = await startApi({ DATA_DIR: dir, JWT_SECRET: '', PIN_PEPPER: '' });
    const handle = uniqueHandle('secret');
    const who = { email: `${handle}@example.com`, password: 'correct horse battery', displayName: 'S', handle, pin: '2468' };
    const registered = await call(api.url, 'POST', '/api/auth/register', { body: who });
    const token = await call(api.url, 'POST', '/api/auth/token', { body: { email: who.email, password: who.password } });
    visitor = { token: token.body.accessToken, userId: registered.body.user.id, accountId: registered.body.account.id };
  }, 120_000);
  afterAll(async () => {
    await api?.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  it('makes a random secret once and keeps it beside the data, readable by its owner only', () => {
    const path = join(dir, 'jwt-secret');
    expect(statSync(path).mode & 0o777).toBe(0o600);
    expect(readFileSync(path, 'utf8').trim()).toMatch(/^[A-Za-z0-9_-]{64}$/);
  });

  it('refuses a token signed with the secret the source once held, whatever it claims', async () => {
    const forged = await forge('tidewater-development-secret-change-me', visitor.userId);
    const reply = await call(api.url, 'GET', '/api/accounts', { token: forged });
    expect([reply.status, reply.body.errorCode]).toEqual([401, 'UNAUTHENTICATED']);
  });

  it('keeps using the kept secret after a restart: a token from before still works', async () => {
    await api.stop();
    api = await startApi({ DATA_DIR: dir, JWT_SECRET: '', PIN_PEPPER: '' });
    expect((await call(api.url, 'GET', '/api/accounts', { token: visitor.token })).status).toBe(200);
    // The PIN pepper was kept beside the data too: the PIN set before the restart still checks (adr/0053).
    expect(statSync(join(dir, 'pin-pepper')).mode & 0o777).toBe(0o600);
    const payment = { operation: 'withdraw', fromAccountId: visitor.accountId, amountMinor: 100 };
    expect((await call(api.url, 'POST', '/api/step-up', { token: visitor.token, body: { pin: '2468', payment } })).status).toBe(201);
    expect((await call(api.url, 'POST', '/api/step-up', { token: visitor.token, body: { pin: '8642', payment } })).body.errorCode).toBe('PIN_INCORRECT');
  });

  it('answers 401, not a 500, to a genuine token whose user does not exist', async () => {
    const secret = readFileSync(join(dir, 'jwt-secret'), 'utf8').trim();
    const nobody = await forge(secret, '7d444840-9dc0-41d1-a0e0-6f2f1c2b3a4d');
    for (const [method, path, body] of [
      ['GET', '/api/me'],
      ['GET', '/api/accounts'],
      ['POST', '/api/accounts', { name: 'Ghost' }],
      ['POST', '/api/step-up', { pin: '2468', payment: { operation: 'withdraw', fromAccountId: '7d444840-9dc0-41d1-a0e0-6f2f1c2b3a4d', amountMinor: 1 } }],
    ] as const) {
      const reply = await call(api.url, method, path, { token: nobody, body });
      expect([method, path, reply.status, reply.body.errorCode]).toEqual([method, path, 401, 'UNAUTHENTICATED']);
    }
  });
});

describe('the signing secret with a server database', () => {
  it('refuses to start without JWT_SECRET, saying why', async () => {
    const failure = await startApi({ DATABASE_URL: 'postgres://nobody@127.0.0.1:1/none', JWT_SECRET: '' }, 20_000).then(
      async (api) => (await api.stop(), 'it started'),
      (error: Error) => error.message,
    );
    expect(failure).toMatch(/the API exited with 1/);
    expect(failure).toMatch(/JWT_SECRET is required with DATABASE_URL/);
  });

  it('refuses to start without PIN_PEPPER, saying why (adr/0053)', async () => {
    const failure = await startApi({ DATABASE_URL: 'postgres://nobody@127.0.0.1:1/none', PIN_PEPPER: '' }, 20_000).then(
      async (api) => (await api.stop(), 'it started'),
      (error: Error) => error.message,
    );
    expect(failure).toMatch(/the API exited with 1/);
    expect(failure).toMatch(/PIN_PEPPER is required with DATABASE_URL/);
  });
});
