/**
 * Sign-up a stranger cannot close, and a sign-in spray from fresh addresses (issue 54
 * item 4, adr/0064), on PostgreSQL with the default limits over real HTTP (addresses from
 * X-Forwarded-For, which the API honours from loopback):
 * - 60 sign-ups refused anyway (a weak PIN) from one IPv6 /64, each from another address
 *   of it: before, all 60 counted for the whole bank (58 × 400, 2 × 429) and an honest
 *   sign-up from elsewhere then met 429; now the /64 is one address (20, then 429) and the
 *   refused ones spend nothing of the global budget;
 * - a spray of SIGN_IN_GLOBAL_LIMIT (1,000) failures in the window, seeded as the rows the
 *   API writes for them from 1,000 addresses: before, a fresh address could still guess;
 *   now it meets 429, while a customer at an address they signed in from still gets in.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bankOnPostgres, type BankOnPostgres } from '@tidewater/test-support/bankOnPostgres';
import { query } from '@tidewater/test-support/bankDatabase';
import { call } from '@tidewater/test-support/httpClient';
import { uniqueHandle } from '@tidewater/test-support/handles';

const visitor = (pin = '2468') => {
  const handle = uniqueHandle('spray');
  return { email: `${handle}@example.com`, password: 'correct horse battery', displayName: 'Spray', handle, pin };
};

describe('sign-up and sign-in under a stranger\'s flood', () => {
  let setup: BankOnPostgres;
  let url: string;
  const customer = visitor();

  beforeAll(async () => {
    setup = await bankOnPostgres();
    url = setup.api.url;
    expect((await register(customer, '192.0.2.81')).status).toBe(201);
    // The customer signs in from home: the address becomes one of theirs (a known address).
    expect((await signIn(customer.email, customer.password, '192.0.2.82')).status).toBe(200);
  }, 120_000);
  afterAll(() => setup?.stop());

  const register = (body: unknown, from: string) => call(url, 'POST', '/api/auth/register', { body, headers: { 'x-forwarded-for': from } });
  const signIn = (email: string, password: string, from: string) =>
    call(url, 'POST', '/api/auth/token', { body: { email, password }, headers: { 'x-forwarded-for': from } });

  it('counts an IPv6 /64 as one address, and refused sign-ups spend no one else\'s budget', async () => {
    const tally: Record<string, number> = {};
    for (let i = 0; i < 60; i++) {
      const reply = await register(visitor('1234'), `2001:db8:54:1:${(i + 1).toString(16)}::7`);
      const key = `${reply.status} ${reply.body?.errorCode}`;
      tally[key] = (tally[key] ?? 0) + 1;
    }
    console.log(`60 weak-PIN sign-ups from one /64 met ${JSON.stringify(tally)}`);
    expect(tally['429 TOO_MANY_REQUESTS']).toBe(40);
    const honest = await register(visitor(), '192.0.2.80');
    expect([honest.status, honest.body?.errorCode]).toEqual([201, undefined]);
  }, 90_000);

  it('refuses a fresh address during a spray of 1,000 failures, and lets a known customer in', async () => {
    const databaseUrl = setup.url;
    await query(
      databaseUrl,
      `INSERT INTO sign_in_failures (email_hash, address)
       SELECT encode(sha256(('victim' || i || '@example.com')::bytea), 'hex'), '198.18.' || (i / 250) || '.' || (i % 250) FROM generate_series(1, 1000) AS i`,
    );
    const fresh = await signIn(customer.email, 'a wrong password', '203.0.113.99');
    expect([fresh.status, fresh.body?.errorCode]).toEqual([429, 'TOO_MANY_REQUESTS']);
    const stranger = await signIn(`someone${Date.now()}@example.com`, 'another wrong one', '203.0.113.100');
    expect(stranger.status).toBe(429);
    const atHome = await signIn(customer.email, customer.password, '192.0.2.82');
    expect(atHome.status).toBe(200);
  }, 90_000);
});
