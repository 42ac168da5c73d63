/**
 * Who banks here cannot be listed through a send (issue 54 item 2, adr/0064), on the real
 * API over HTTP: once a customer's payee look-ups answer 429, a transfer by handle with an
 * authorisation that is not theirs answered `404 PAYEE_NOT_FOUND` for every absent handle
 * and `401 AUTHORIZATION_INVALID` for a real one, and naming a victim's account with the
 * victim's handle answered `422 SAME_ACCOUNT`, confirming whose account it is. Now the
 * authorisation and the account are checked first (one answer for every handle), and an
 * authorised send's look-up counts toward the same per-customer limit.
 */
import { randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bankOnPostgres, type BankOnPostgres } from '@tidewater/test-support/bankOnPostgres';
import { query } from '@tidewater/test-support/bankDatabase';
import { call, type Reply } from '@tidewater/test-support/httpClient';
import { uniqueHandle } from '@tidewater/test-support/handles';

const password = 'correct horse battery';
const pin = '2468';

interface Customer {
  handle: string;
  token: string;
  accountId: string;
}

describe('payee enumeration through sends', () => {
  let setup: BankOnPostgres;
  let api: BankOnPostgres['api'];
  let thief: Customer;
  let victim: Customer;

  async function customer(handle: string): Promise<Customer> {
    const email = `${handle}@example.com`;
    const registered = await call(api.url, 'POST', '/api/auth/register', { body: { email, password, displayName: 'Payee', handle, pin } });
    expect(registered.status).toBe(201);
    const token = await call(api.url, 'POST', '/api/auth/token', { body: { email, password } });
    await call(api.url, 'POST', `/api/accounts/${registered.body.account.id}/deposits`, {
      token: token.body.accessToken, body: { amountMinor: 10_000 }, headers: { 'idempotency-key': randomUUID() },
    });
    return { handle, token: token.body.accessToken, accountId: registered.body.account.id };
  }

  const send = (from: Customer, fromAccountId: string, toHandle: string, authorizationId: string): Promise<Reply> =>
    call(api.url, 'POST', '/api/transfers/internal', {
      token: from.token, body: { fromAccountId, toHandle, amountMinor: 100, authorizationId }, headers: { 'idempotency-key': randomUUID() },
    });
  const outcome = (reply: Reply) => `${reply.status} ${reply.body?.errorCode}`;

  beforeAll(async () => {
    setup = await bankOnPostgres({ env: { VALIDATE_RESPONSES: '1' } });
    api = setup.api;
    thief = await customer(uniqueHandle('thief'));
    victim = await customer(uniqueHandle('victim'));
    // The thief spends the window's payee look-ups.
    for (let i = 0; i < 30; i++) await call(api.url, 'GET', `/api/payees/${uniqueHandle('nobody')}?name=Someone`, { token: thief.token });
    expect((await call(api.url, 'GET', `/api/payees/${victim.handle}?name=Someone`, { token: thief.token })).status).toBe(429);
  }, 120_000);
  afterAll(() => setup?.stop());

  it('counts no look-up past the limit while another is still committing: a customer\'s look-ups are counted one at a time', async () => {
    const hurried = await customer(uniqueHandle('hurried'));
    const [{ id }] = (await query<{ id: string }>(setup.url, 'SELECT id::text AS id FROM users WHERE handle = $1', [hurried.handle])) as [{ id: string }];
    const count = 'SELECT counted FROM count_payee_lookup($1::uuid, 30, 60000)';
    for (let i = 0; i < 29; i++) await query(setup.url, count, [id]);
    // The 30th, counted in a transaction that has not committed yet, as a send's statement is until its end.
    const thirtieth = new pg.Client({ connectionString: setup.url });
    await thirtieth.connect();
    try {
      await thirtieth.query('BEGIN');
      expect((await thirtieth.query<{ counted: boolean }>(count, [id])).rows[0]!.counted).toBe(true);
      const thirtyFirst = query<{ counted: boolean }>(setup.url, count, [id]);
      await sleep(300);
      await thirtieth.query('COMMIT');
      expect((await thirtyFirst)[0]!.counted).toBe(false);
    } finally {
      await thirtieth.end();
    }
    const [counted] = await query<{ n: number }>(setup.url, 'SELECT count(*)::int AS n FROM payee_lookups WHERE user_id = $1', [id]);
    expect(counted!.n).toBe(30);
  });

  it('answers the same for 40 absent handles and a real one when the send is not authorised', async () => {
    const answers = new Set<string>();
    for (let i = 0; i < 40; i++) answers.add(outcome(await send(thief, thief.accountId, uniqueHandle('absent'), randomUUID())));
    answers.add(outcome(await send(thief, thief.accountId, victim.handle, randomUUID())));
    expect([...answers]).toEqual(['401 AUTHORIZATION_INVALID']);
  });

  it('does not confirm whose account an id is', async () => {
    expect(outcome(await send(thief, victim.accountId, victim.handle, randomUUID()))).toBe('401 AUTHORIZATION_INVALID');
  });

  it('counts an authorised send\'s look-up toward the same limit: 429, nothing moved', async () => {
    const payment = { operation: 'createInternalTransfer', fromAccountId: thief.accountId, amountMinor: 100, toHandle: uniqueHandle('absent') };
    const approved = await call(api.url, 'POST', '/api/step-up', { token: thief.token, body: { pin, payment } });
    expect(approved.status).toBe(201);
    const reply = await send(thief, thief.accountId, payment.toHandle, approved.body.authorizationId);
    expect(outcome(reply)).toBe('429 TOO_MANY_REQUESTS');
    const [account] = await query<{ balance: string }>(setup.url, 'SELECT balance_minor::text AS balance FROM accounts WHERE id = $1', [thief.accountId]);
    expect(account!.balance).toBe('10000');
    // The authorisation is not spent: the customer can send with it once the window allows.
    const [authorization] = await query<{ used: boolean }>(setup.url, 'SELECT used_at IS NOT NULL AS used FROM step_up_authorizations WHERE id = $1', [approved.body.authorizationId]);
    expect(authorization!.used).toBe(false);
  });
});
