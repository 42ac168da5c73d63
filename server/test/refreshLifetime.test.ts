/**
 * A refresh token family has an absolute lifetime (REFRESH_TOKEN_TTL_SECONDS from sign-in,
 * adr/0045): each rotation hands out a new token that ends when the family ends, so a
 * stolen token renewed again and again still dies on time. Scaled down to 4 s, on PGlite.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startApi, type ApiProcess } from '@tidewater/test-support/apiProcess';
import { bank } from '@tidewater/test-support/bank';
import { call } from '@tidewater/test-support/httpClient';

describe('the refresh token family on PGlite', () => {
  let api: ApiProcess;
  let dir: string;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'tidewater-refresh-'));
    api = await startApi({ DATA_DIR: dir, REFRESH_TOKEN_TTL_SECONDS: '4' });
  });
  afterAll(async () => {
    await api?.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  it('ends at its sign-in time plus its lifetime, however often it is renewed', async () => {
    const customer = await bank(api.url).signUp();
    const email = (await call(api.url, 'GET', '/api/me', { token: customer.token })).body.email as string;
    const signedIn = await call(api.url, 'POST', '/api/auth/token', { body: { email, password: 'correct horse battery' } });
    expect(signedIn.body.refreshExpiresIn).toBe(4);
    const started = Date.now();
    let refreshToken = signedIn.body.refreshToken as string;
    // Renew every second: each answer says less time is left, never a fresh 4 s.
    for (let renewal = 1; renewal <= 3; renewal++) {
      await sleep(1_000);
      const renewed = await call(api.url, 'POST', '/api/auth/refresh', { body: { refreshToken } });
      expect(renewed.status, JSON.stringify(renewed.body)).toBe(200);
      expect(renewed.body.refreshExpiresIn).toBeLessThanOrEqual(4 - renewal + 1);
      refreshToken = renewed.body.refreshToken;
    }
    await sleep(Math.max(0, started + 4_300 - Date.now()));
    const late = await call(api.url, 'POST', '/api/auth/refresh', { body: { refreshToken } });
    expect([late.status, late.body.errorCode]).toEqual([401, 'TOKEN_INVALID']);
  });
});
