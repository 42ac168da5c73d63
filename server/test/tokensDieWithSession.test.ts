/**
 * Access tokens die with their session (issue 54 item 5, adr/0064), on PostgreSQL with two
 * API workers over real HTTP: after a sign-out, a revoked refresh token or a refresh token
 * used twice (a theft detected), every access token of that session is refused within
 * ACCESS_TOKEN_RECHECK_SECONDS (2 s; at once on the worker that ended it), not at its 900 s
 * expiry as before (`fam` was never checked: `POST /api/auth/logout` 204, then `GET /api/me`
 * 200). Another session of the same customer is untouched by a revoke or a theft.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { setTimeout as sleep } from 'node:timers/promises';
import { startApi, type ApiProcess } from '@tidewater/test-support/apiProcess';
import { call } from '@tidewater/test-support/httpClient';
import { startPrimary, type PgCluster } from '@tidewater/test-support/pgCluster';
import { uniqueHandle } from '@tidewater/test-support/handles';

const password = 'correct horse battery';
/** How long the test waits for a refusal: well past the 2 s recheck, far short of the 900 s expiry. */
const patienceMs = 8_000;

describe('access tokens and their session, two workers on PostgreSQL', () => {
  let cluster: PgCluster;
  let api: ApiProcess;
  let email: string;

  beforeAll(async () => {
    cluster = await startPrimary();
    api = await startApi({ DATABASE_URL: cluster.urlFor('tidewater'), API_WORKERS: '2' });
    const handle = uniqueHandle('token');
    email = `${handle}@example.com`;
    const registered = await call(api.url, 'POST', '/api/auth/register', { body: { email, password, displayName: 'Token', handle, pin: '2468' } });
    expect(registered.status).toBe(201);
  }, 120_000);
  afterAll(async () => {
    await api?.stop();
    await cluster?.destroy();
  });

  const signIn = async () => {
    const reply = await call(api.url, 'POST', '/api/auth/token', { body: { email, password } });
    expect(reply.status).toBe(200);
    return reply.body as { accessToken: string; refreshToken: string };
  };
  const me = async (token: string) => (await call(api.url, 'GET', '/api/me', { token })).status;

  /** Seconds until `token` is refused on every one of several requests (both workers), or Infinity. */
  async function secondsUntilRefused(token: string): Promise<number> {
    const started = Date.now();
    while (Date.now() - started < patienceMs) {
      const statuses = await Promise.all([1, 2, 3, 4].map(() => me(token)));
      if (statuses.every((status) => status === 401)) return (Date.now() - started) / 1000;
      await sleep(100);
    }
    return Infinity;
  }

  it('ends the access tokens of a signed-out session within seconds', async () => {
    const session = await signIn();
    // Both workers have seen the session alive, so their memory of it is what must give way.
    expect(await Promise.all([1, 2, 3, 4].map(() => me(session.accessToken)))).toEqual([200, 200, 200, 200]);
    expect((await call(api.url, 'POST', '/api/auth/logout', { token: session.accessToken })).status).toBe(204);
    const outlived = await secondsUntilRefused(session.accessToken);
    console.log(`an access token outlived its sign-out by ${outlived.toFixed(1)} s`);
    expect(outlived).toBeLessThanOrEqual(3);
    const refused = await call(api.url, 'GET', '/api/me', { token: session.accessToken });
    expect([refused.status, refused.body.errorCode, refused.headers.get('www-authenticate')]).toEqual([401, 'UNAUTHENTICATED', expect.stringMatching(/^Bearer/)]);
  });

  it('ends the access tokens of a session whose refresh token came back twice, and no other session', async () => {
    const stolen = await signIn();
    const other = await signIn();
    const rotated = await call(api.url, 'POST', '/api/auth/refresh', { body: { refreshToken: stolen.refreshToken } });
    expect(rotated.status).toBe(200);
    const replay = await call(api.url, 'POST', '/api/auth/refresh', { body: { refreshToken: stolen.refreshToken } });
    expect([replay.status, replay.body.errorCode]).toEqual([401, 'TOKEN_INVALID']);
    expect(await secondsUntilRefused(stolen.accessToken)).toBeLessThanOrEqual(3);
    expect(await secondsUntilRefused(rotated.body.accessToken)).toBeLessThanOrEqual(3);
    expect(await me(other.accessToken)).toBe(200);
  });

  it('ends a session\'s access tokens when its refresh token is revoked (RFC 7009), and no other session', async () => {
    const revoked = await signIn();
    const other = await signIn();
    expect((await call(api.url, 'POST', '/api/auth/revoke', { body: { refreshToken: revoked.refreshToken } })).status).toBe(204);
    expect(await secondsUntilRefused(revoked.accessToken)).toBeLessThanOrEqual(3);
    expect(await me(other.accessToken)).toBe(200);
  });
});
