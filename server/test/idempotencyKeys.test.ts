/**
 * The key reads (adr/0051) on PostgreSQL over HTTP, the responses validated against the
 * spec: what the bank holds for one Idempotency-Key of this customer (in flight, landed
 * with its stored answer, unknown), and the customer's recent keys. Keys are per customer.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bank, newKey, type Customer } from '@tidewater/test-support/bank';
import { holdingAccount, untilSomeoneWaitsForALock } from '@tidewater/test-support/bankDatabase';
import { bankOnPostgres, type BankOnPostgres } from '@tidewater/test-support/bankOnPostgres';
import { call } from '@tidewater/test-support/httpClient';

describe('what the bank holds for a key', () => {
  let setup: BankOnPostgres;
  let ada: Customer;
  let grace: Customer;

  beforeAll(async () => {
    setup = await bankOnPostgres({ env: { VALIDATE_RESPONSES: '1' } });
    ada = await setup.bank.signUp();
    grace = await setup.bank.signUp();
  });
  afterAll(() => setup?.stop());

  const keyOf = (customer: Customer, key: string) => call(setup.api.url, 'GET', `/api/idempotency-keys/${key}`, { token: customer.token });
  const recentOf = (customer: Customer, since?: string) =>
    call(setup.api.url, 'GET', `/api/idempotency-keys${since ? `?since=${encodeURIComponent(since)}` : ''}`, { token: customer.token });

  it('a key the bank never saw is unknown', async () => {
    const key = newKey();
    const reply = await keyOf(ada, key);
    expect(reply.status).toBe(200);
    expect(reply.body).toEqual({ key, state: 'unknown', operationId: null, claimedAt: null, answer: null });
  });

  it('a landed deposit is landed, with the answer a re-send replays; another customer sees it as unknown', async () => {
    const key = newKey();
    const sent = await bank(setup.api.url).deposit(ada, ada.accountId, 1234, key);
    expect(sent.status).toBe(201);
    const reply = await keyOf(ada, key);
    expect(reply.body).toMatchObject({ key, state: 'landed', operationId: 'deposit', claimedAt: expect.any(String), answer: { status: 201, body: sent.body } });
    expect((await keyOf(grace, key)).body).toMatchObject({ state: 'unknown', answer: null });
    const recent = await recentOf(ada);
    expect(recent.status).toBe(200);
    expect(recent.body.items.map((item: { key: string }) => item.key)).toContain(key);
    expect((await recentOf(grace)).body.items.map((item: { key: string }) => item.key)).not.toContain(key);
  });

  it('a deposit waiting for its account is in flight to the key read, then landed there and in the recent keys', async () => {
    const key = newKey();
    let sending: ReturnType<ReturnType<typeof bank>['deposit']> | undefined;
    await holdingAccount(setup.url, ada.accountId, async () => {
      sending = bank(setup.api.url).deposit(ada, ada.accountId, 500, key);
      await untilSomeoneWaitsForALock(setup.url);
      // Its one statement claims the key (adr/0070): nothing is committed yet, so which operation and since when are unknown.
      expect((await keyOf(ada, key)).body).toEqual({ key, state: 'inFlight', operationId: null, claimedAt: null, answer: null });
      // Another customer's same key is not theirs.
      expect((await keyOf(grace, key)).body).toMatchObject({ state: 'unknown' });
    });
    expect((await sending!).status).toBe(201);
    expect((await keyOf(ada, key)).body).toMatchObject({ state: 'landed', operationId: 'deposit', answer: { status: 201 } });
    const items = (await recentOf(ada)).body.items as Array<{ key: string; state: string }>;
    expect(items[0]).toMatchObject({ key, state: 'landed' });
  });

  it('a `since` in the future lists nothing; one older than 24 h reads the last 24 h', async () => {
    expect((await recentOf(ada, new Date(Date.now() + 60_000).toISOString())).body).toEqual({ items: [] });
    expect((await recentOf(ada, '2000-01-01T00:00:00Z')).body.items.length).toBeGreaterThan(0);
  });

  it('hostile input is a 400 problem, never a 500', async () => {
    for (const path of ['/api/idempotency-keys/short', `/api/idempotency-keys/${'x'.repeat(65)}`, '/api/idempotency-keys/bad%20key!', '/api/idempotency-keys?since=yesterday', '/api/idempotency-keys?since=2026-12-31T23%3A59%3A60Z']) {
      const reply = await call(setup.api.url, 'GET', path, { token: ada.token });
      expect([path, reply.status, reply.contentType]).toEqual([path, 400, expect.stringContaining('application/problem+json')]);
    }
    expect((await call(setup.api.url, 'GET', `/api/idempotency-keys/${newKey()}`)).status).toBe(401);
  });
});
