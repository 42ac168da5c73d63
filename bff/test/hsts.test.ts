/**
 * HSTS whenever the request came over TLS (adr/0046): behind a trusted TLS proxy
 * (BFF_TRUST_PROXY, X-Forwarded-Proto: https) every answer carries
 * Strict-Transport-Security, whatever COOKIE_SECURE says; over plain http none does.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startBff, type BffProcess } from '@tidewater/test-support/bffProcess';
import { startFakeApi, type FakeApi } from './support/fakeApi.ts';

let fake: FakeApi;
let bff: BffProcess;

beforeAll(async () => {
  fake = await startFakeApi();
  bff = await startBff({ apiUrl: fake.url, env: { BFF_TRUST_PROXY: 'loopback', COOKIE_SECURE: 'auto' } });
});
afterAll(async () => {
  await bff?.stop();
  await fake?.stop();
});

describe('Strict-Transport-Security', () => {
  it('is sent on an answer to a request that came over TLS', async () => {
    const answer = await fetch(`${bff.url}/bff/session`, { headers: { 'x-forwarded-proto': 'https' } });
    expect(answer.headers.get('strict-transport-security')).toBe('max-age=31536000; includeSubDomains');
  });

  it('is not sent over plain http', async () => {
    const answer = await fetch(`${bff.url}/bff/session`);
    expect(answer.headers.get('strict-transport-security')).toBeNull();
  });
});
