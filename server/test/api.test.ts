/**
 * The API end to end, over real HTTP, on both databases it runs on: the embedded PGlite
 * and a throwaway PostgreSQL cluster. Every answer is also checked against the spec by
 * the server itself (VALIDATE_RESPONSES=1: a mismatch would turn into a 500 here).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startApi, type ApiProcess } from '@tidewater/test-support/apiProcess';
import { call } from '@tidewater/test-support/httpClient';
import { uniqueHandle } from '@tidewater/test-support/handles';
import { startPrimary, type PgCluster } from '@tidewater/test-support/pgCluster';

interface Backend {
  name: string;
  start(): Promise<{ env: Record<string, string>; cleanup(): Promise<void> }>;
}

const backends: Backend[] = [
  {
    name: 'PGlite',
    async start() {
      const dir = mkdtempSync(join(tmpdir(), 'tidewater-pglite-'));
      return { env: { DATA_DIR: dir }, cleanup: async () => rmSync(dir, { recursive: true, force: true }) };
    },
  },
  {
    name: 'PostgreSQL',
    async start() {
      const cluster: PgCluster = await startPrimary();
      return { env: { DATABASE_URL: cluster.urlFor('tidewater') }, cleanup: () => cluster.destroy() };
    },
  },
];

let userCount = 0;
function newVisitor() {
  userCount += 1;
  const handle = uniqueHandle('visitor');
  return {
    email: `${handle}@example.com`,
    password: 'correct horse battery',
    displayName: `Visitor ${userCount}`,
    handle,
    pin: '4391',
  };
}

describe.each(backends)('the API on $name', (backend) => {
  let api: ApiProcess;
  let cleanup: () => Promise<void>;

  beforeAll(async () => {
    const started = await backend.start();
    cleanup = started.cleanup;
    api = await startApi({ ...started.env, VALIDATE_RESPONSES: '1', SIGN_IN_FAILURE_LIMIT: '3' });
  });
  afterAll(async () => {
    await api?.stop();
    await cleanup?.();
  });

  async function signUpAndIn() {
    const visitor = newVisitor();
    const registered = await call(api.url, 'POST', '/api/auth/register', { body: visitor });
    expect(registered.status).toBe(201);
    const token = await call(api.url, 'POST', '/api/auth/token', { body: { email: visitor.email, password: visitor.password } });
    expect(token.status).toBe(200);
    return { visitor, registered: registered.body, tokens: token.body };
  }

  it('registers, signs in and lists the first account', async () => {
    const { visitor, registered, tokens } = await signUpAndIn();
    expect(registered.user).toMatchObject({ email: visitor.email, handle: visitor.handle, primaryAccountId: registered.account.id });
    expect(registered.account).toMatchObject({ name: 'Everyday', balanceMinor: 0, status: 'open', isPrimary: true, currency: 'EUR' });
    const accounts = await call(api.url, 'GET', '/api/accounts', { token: tokens.accessToken });
    expect(accounts.status).toBe(200);
    expect(accounts.body.items).toEqual([registered.account]);
    const me = await call(api.url, 'GET', '/api/me', { token: tokens.accessToken });
    expect(me.body).toEqual(registered.user);
    // Bearer tokens never reach the log, however the request went.
    const traceId = me.headers.get('x-trace-id')!;
    for (let i = 0; i < 40 && !api.logLines.some((line) => line.includes(traceId)); i++) await new Promise((r) => setTimeout(r, 50));
    const log = api.logLines.join('\n');
    expect(log).toContain(traceId);
    expect(log).not.toContain(tokens.accessToken);
    expect(log).not.toContain(tokens.refreshToken);
  });

  it('opens a second account and reads it; another customer cannot', async () => {
    const owner = await signUpAndIn();
    const stranger = await signUpAndIn();
    const opened = await call(api.url, 'POST', '/api/accounts', { token: owner.tokens.accessToken, body: { name: 'Savings' } });
    expect(opened.status).toBe(201);
    expect(opened.body).toMatchObject({ name: 'Savings', isPrimary: false, balanceMinor: 0 });
    const mine = await call(api.url, 'GET', `/api/accounts/${opened.body.id}`, { token: owner.tokens.accessToken });
    expect(mine.body).toEqual(opened.body);
    const theirs = await call(api.url, 'GET', `/api/accounts/${opened.body.id}`, { token: stranger.tokens.accessToken });
    expect(theirs.status).toBe(404);
    expect(theirs.body.errorCode).toBe('ACCOUNT_NOT_FOUND');
    const list = await call(api.url, 'GET', '/api/accounts', { token: owner.tokens.accessToken });
    expect(list.body.items.map((a: { name: string }) => a.name)).toEqual(['Everyday', 'Savings']);
  });

  it('refuses a taken email or handle, and a wrong password', async () => {
    const { visitor } = await signUpAndIn();
    const sameEmail = await call(api.url, 'POST', '/api/auth/register', { body: { ...newVisitor(), email: visitor.email.toUpperCase() } });
    expect([sameEmail.status, sameEmail.body.errorCode]).toEqual([409, 'EMAIL_TAKEN']);
    const sameHandle = await call(api.url, 'POST', '/api/auth/register', { body: { ...newVisitor(), handle: visitor.handle } });
    expect([sameHandle.status, sameHandle.body.errorCode]).toEqual([409, 'HANDLE_TAKEN']);
    const wrong = await call(api.url, 'POST', '/api/auth/token', { body: { email: visitor.email, password: 'not the password' } });
    expect([wrong.status, wrong.body.errorCode]).toEqual([401, 'INVALID_CREDENTIALS']);
    const nobody = await call(api.url, 'POST', '/api/auth/token', { body: { email: 'nobody@example.com', password: 'whatever123' } });
    expect([nobody.status, nobody.body.errorCode]).toEqual([401, 'INVALID_CREDENTIALS']);
  });

  it('limits failed sign-ins per email, and never counts the successful ones', async () => {
    const { visitor } = await signUpAndIn();
    const signIn = (password: string) => call(api.url, 'POST', '/api/auth/token', { body: { email: visitor.email, password } });
    for (let i = 0; i < 12; i++) expect((await signIn(visitor.password)).status).toBe(200);
    for (let i = 0; i < 3; i++) expect((await signIn('not the password')).status).toBe(401);
    const limited = await signIn(visitor.password);
    expect(limited.status).toBe(429);
    expect(limited.contentType).toContain('application/problem+json');
    expect(limited.body).toMatchObject({ errorCode: 'TOO_MANY_REQUESTS', status: 429 });
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(limited.body.retryAfterSeconds).toBe(Number(limited.headers.get('retry-after')));
    // Another customer is not slowed by this one's failures.
    const other = await signUpAndIn();
    expect((await call(api.url, 'POST', '/api/auth/token', { body: { email: other.visitor.email, password: other.visitor.password } })).status).toBe(200);
  });

  it('rotates refresh tokens and ends the family when a spent one comes back', async () => {
    const { tokens } = await signUpAndIn();
    const first = await call(api.url, 'POST', '/api/auth/refresh', { body: { refreshToken: tokens.refreshToken } });
    expect(first.status).toBe(200);
    expect(first.body.refreshToken).not.toBe(tokens.refreshToken);
    const replay = await call(api.url, 'POST', '/api/auth/refresh', { body: { refreshToken: tokens.refreshToken } });
    expect([replay.status, replay.body.errorCode]).toEqual([401, 'TOKEN_INVALID']);
    // The replay revoked the family: the token issued by the first rotation is dead too.
    const successor = await call(api.url, 'POST', '/api/auth/refresh', { body: { refreshToken: first.body.refreshToken } });
    expect(successor.status).toBe(401);
    // Each says what happened to it: the spent one was used, the newer one was never used but ended with its session.
    expect(replay.body.detail).toMatch(/already used/);
    expect(successor.body.detail).not.toMatch(/already used/);
    expect(successor.body.detail).toMatch(/session .*ended/);
  });

  it('revokes a refresh token and logs out every session of the user', async () => {
    const { visitor, tokens } = await signUpAndIn();
    expect((await call(api.url, 'POST', '/api/auth/revoke', { body: { refreshToken: tokens.refreshToken } })).status).toBe(204);
    expect((await call(api.url, 'POST', '/api/auth/revoke', { body: { refreshToken: tokens.refreshToken } })).status).toBe(204);
    expect((await call(api.url, 'POST', '/api/auth/refresh', { body: { refreshToken: tokens.refreshToken } })).status).toBe(401);
    const second = await call(api.url, 'POST', '/api/auth/token', { body: { email: visitor.email, password: visitor.password } });
    expect((await call(api.url, 'POST', '/api/auth/logout', { token: second.body.accessToken })).status).toBe(204);
    expect((await call(api.url, 'POST', '/api/auth/refresh', { body: { refreshToken: second.body.refreshToken } })).status).toBe(401);
  });

  it('answers health and readiness', async () => {
    expect((await call(api.url, 'GET', '/api/health')).body).toEqual({ status: 'ok' });
    expect((await call(api.url, 'GET', '/api/ready')).body).toEqual({ status: 'ready' });
  });

  const badInputs: Array<[string, { method: string; path: string; body?: unknown; headers?: Record<string, string>; auth?: boolean }, number, string]> = [
    ['a wrong type', { method: 'POST', path: '/api/auth/register', body: { ...newVisitor(), pin: 1234 } }, 400, 'VALIDATION_FAILED'],
    ['a missing field', { method: 'POST', path: '/api/auth/token', body: { email: 'a@example.com' } }, 400, 'VALIDATION_FAILED'],
    ['an unknown field', { method: 'POST', path: '/api/auth/token', body: { email: 'a@example.com', password: 'x'.repeat(12), admin: true } }, 400, 'VALIDATION_FAILED'],
    ['malformed JSON', { method: 'POST', path: '/api/auth/token', body: '{"email": ' }, 400, 'MALFORMED_JSON'],
    ['an oversized body', { method: 'POST', path: '/api/auth/token', body: JSON.stringify({ email: 'a@example.com', password: 'p'.repeat(200_000) }) }, 413, 'PAYLOAD_TOO_LARGE'],
    ['a body that is not JSON', { method: 'POST', path: '/api/auth/token', body: 'email=a', headers: { 'content-type': 'text/plain' } }, 415, 'UNSUPPORTED_MEDIA_TYPE'],
    ['an id that is not a uuid', { method: 'GET', path: '/api/accounts/not-a-uuid', auth: true }, 400, 'VALIDATION_FAILED'],
    ['no bearer token', { method: 'GET', path: '/api/accounts' }, 401, 'UNAUTHENTICATED'],
    ['a forged bearer token', { method: 'GET', path: '/api/me', headers: { authorization: 'Bearer eyJhbGciOiJIUzI1NiJ9.e30.c2lnbmF0dXJl' } }, 401, 'UNAUTHENTICATED'],
    ['a money send without its key', { method: 'POST', path: '/api/accounts/3f1c2a9e-6b7d-4c1e-9a3b-2f5e8d7c6b1a/deposits', body: { amountMinor: 100 }, auth: true }, 400, 'IDEMPOTENCY_KEY_MISSING'],
    ['a path the API does not have', { method: 'GET', path: '/api/nothing-here' }, 404, 'NOT_FOUND'],
  ];

  it.each(badInputs)('answers %s with a problem, never a 500', async (_name, request, status, errorCode) => {
    const token = request.auth ? (await signUpAndIn()).tokens.accessToken : undefined;
    const reply = await call(api.url, request.method, request.path, { body: request.body, headers: request.headers, token });
    expect(reply.status).toBe(status);
    expect(reply.contentType).toContain('application/problem+json');
    expect(reply.body).toMatchObject({ status, errorCode, traceId: reply.headers.get('x-trace-id') });
    expect(JSON.stringify(reply.body)).not.toMatch(/at .*\.ts:\d+|node_modules/);
  });
});
