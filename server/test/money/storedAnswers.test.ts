/**
 * What an Idempotency-Key stores, on PostgreSQL over HTTP (adr/0048): every final answer of
 * the bank's rules, its 201 and its refusals (404, 422), replayed byte for byte with
 * `Idempotent-Replayed: true` however the account changes later; nothing for what the bank
 * did not decide (a bad request, a step-up to redo), so the same key then runs the send;
 * 409 IN_FLIGHT names its wait; an account carries the key it was opened with; a transfer
 * is read back by id; a refusal's type resolves to its page; a step-up to redo says so in
 * its 401's challenge. Money is checked from the database.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hashRequest } from '../../src/domain/idempotency/idempotency.ts';
import type { ApiProcess } from '@tidewater/test-support/apiProcess';
import { bankOnPostgres, type BankOnPostgres } from '@tidewater/test-support/bankOnPostgres';
import { newKey, outcome, type Bank, type Customer } from '@tidewater/test-support/bank';
import { uniqueHandle } from '@tidewater/test-support/handles';
import { keyState, query } from '@tidewater/test-support/bankDatabase';
import { call } from '@tidewater/test-support/httpClient';

/** A POST under `key`, answered as raw bytes and the headers a client reads. */
async function rawSend(url: string, customer: Customer, path: string, body: unknown, key: string) {
  const response = await fetch(`${url}${path}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${customer.token}`, 'content-type': 'application/json', 'idempotency-key': key },
    body: JSON.stringify(body),
  });
  return {
    status: response.status,
    text: await response.text(),
    contentType: response.headers.get('content-type'),
    replayed: response.headers.get('idempotent-replayed'),
  };
}

describe('what an Idempotency-Key stores', () => {
  let setup: BankOnPostgres;
  let url: string;
  let api: ApiProcess;
  let b: Bank;
  let ada: Customer;
  let grace: Customer;

  beforeAll(async () => {
    setup = await bankOnPostgres({ env: { VALIDATE_RESPONSES: '1' } });
    ({ url, api, bank: b } = setup);
    [ada, grace] = await Promise.all([b.signUp(), b.signUp()]);
  });
  afterAll(() => setup?.stop());

  const ledgerOf = async (accountId: string) =>
    (await query<{ amount: string }>(url, 'SELECT amount_minor::text AS amount FROM ledger_entries WHERE account_id = $1', [accountId])).map((row) => Number(row.amount));

  it('stores a 201 and replays it, byte for byte, marked Idempotent-Replayed: true (the first answer is not)', async () => {
    const key = newKey();
    const path = `/api/accounts/${ada.accountId}/deposits`;
    const first = await rawSend(api.url, ada, path, { amountMinor: 500 }, key);
    expect([first.status, first.replayed]).toEqual([201, null]);
    const again = await rawSend(api.url, ada, path, { amountMinor: 500 }, key);
    expect(again).toEqual({ ...first, replayed: 'true' });
    expect((await keyState(url, key)).ledger).toEqual([{ account_id: ada.accountId, amount_minor: '500' }]);
  });

  it('stores a withdrawal refused 422 INSUFFICIENT_FUNDS: after a deposit the same key still answers the refusal and moves nothing', async () => {
    const carol = await b.signUp();
    const key = newKey();
    const body = { amountMinor: 900, authorizationId: await b.authorize(carol, { operation: 'withdraw', fromAccountId: carol.accountId, amountMinor: 900 }) };
    const path = `/api/accounts/${carol.accountId}/withdrawals`;
    const refused = await rawSend(api.url, carol, path, body, key);
    expect([refused.status, JSON.parse(refused.text).errorCode, refused.contentType, refused.replayed]).toEqual([
      422, 'INSUFFICIENT_FUNDS', 'application/problem+json; charset=utf-8', null,
    ]);
    expect((await keyState(url, key)).records).toMatchObject([{ status: 'Executed', landed_at: null }]);

    expect((await b.deposit(carol, carol.accountId, 900)).status).toBe(201);
    const replay = await rawSend(api.url, carol, path, body, key);
    expect(replay).toEqual({ ...refused, replayed: 'true' });
    // Another payload under the refused key is still refused as a reuse.
    expect(outcome(await b.withdraw(carol, carol.accountId, 100, body.authorizationId, key))).toEqual([422, 'IDEMPOTENCY_KEY_REUSED']);
    expect(await ledgerOf(carol.accountId)).toEqual([900]);
    // The authorisation was not spent by the refusal: a new key with it lands once.
    expect((await b.withdraw(carol, carol.accountId, 900, body.authorizationId)).status).toBe(201);
    expect(await b.balance(carol, carol.accountId)).toBe(0);
  });

  // A deposit's one statement is its own commit (adr/0027): its refusal kept the key at 409 IN_FLIGHT until stale.
  it.each([
    ['404 ACCOUNT_NOT_FOUND (a closed account)', 'closed', 100, [404, 'ACCOUNT_NOT_FOUND']],
    ["404 ACCOUNT_NOT_FOUND (another customer's account)", 'grace', 100, [404, 'ACCOUNT_NOT_FOUND']],
  ] as const)('answers a deposit refused %s under its key at once, and again on every replay, never 409 IN_FLIGHT', async (_name, where, amountMinor, want) => {
    const closed = where === 'closed' ? await b.openAccount(ada, 'Closed for deposits') : undefined;
    if (closed) expect((await b.close(ada, closed)).status).toBe(200);
    const accountId = closed ?? grace.accountId;
    const before = await ledgerOf(accountId);
    const key = newKey();
    const path = `/api/accounts/${accountId}/deposits`;
    const first = await rawSend(api.url, ada, path, { amountMinor }, key);
    expect([first.status, JSON.parse(first.text).errorCode]).toEqual(want);
    const again = await rawSend(api.url, ada, path, { amountMinor }, key);
    expect(again).toEqual({ ...first, replayed: 'true' });
    expect(await ledgerOf(accountId)).toEqual(before);
  });

  it('stores a transfer refused before it locked anything (404 PAYEE_NOT_FOUND), and the payee that appears later changes nothing', async () => {
    const key = newKey();
    const handle = uniqueHandle('later');
    // Approved for exactly this payment (money that leaves the customer needs its step-up, adr/0045).
    const authorizationId = await b.authorize(ada, { operation: 'createInternalTransfer', fromAccountId: ada.accountId, amountMinor: 1, toHandle: handle });
    const body = { fromAccountId: ada.accountId, toHandle: handle, amountMinor: 1, authorizationId };
    const first = await rawSend(api.url, ada, '/api/transfers/internal', body, key);
    expect([first.status, JSON.parse(first.text).errorCode]).toEqual([404, 'PAYEE_NOT_FOUND']);
    await call(api.url, 'POST', '/api/auth/register', {
      body: { email: `${handle}@example.com`, password: 'correct horse battery', displayName: 'Later', handle, pin: '2468' },
    });
    expect(await rawSend(api.url, ada, '/api/transfers/internal', body, key)).toEqual({ ...first, replayed: 'true' });
    expect((await keyState(url, key)).ledger).toEqual([]);
  });

  it("sends a refusal whose type resolves, against the API's own address, to its code's page", async () => {
    const refused = await b.deposit(ada, grace.accountId, 100);
    expect(refused.body.type).toBe('/docs/problems/account-not-found');
    const page = await fetch(new URL(refused.body.type, api.url));
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('<code>ACCOUNT_NOT_FOUND</code>');
  });

  it('stores nothing for a step-up to redo (401): the same key then runs the send, once', async () => {
    const dan = await b.signUp();
    expect((await b.deposit(dan, dan.accountId, 1_000)).status).toBe(201);
    const key = newKey();
    const unknownAuthorization = '00000000-0000-4000-8000-000000000000';
    const stepUpToRedo = await b.withdraw(dan, dan.accountId, 300, unknownAuthorization, key);
    expect(outcome(stepUpToRedo)).toEqual([401, 'AUTHORIZATION_INVALID']);
    // Told apart from a token to refresh by its challenge (RFC 9470), as every 401 carries one (RFC 9110).
    expect(stepUpToRedo.headers.get('www-authenticate')).toMatch(/^Bearer realm="tidewater", error="insufficient_user_authentication"/);
    const noToken = await call(api.url, 'GET', '/api/accounts');
    expect([noToken.status, noToken.headers.get('www-authenticate')]).toEqual([401, 'Bearer realm="tidewater"']);
    expect((await keyState(url, key)).records).toEqual([]);
    expect((await b.withdraw(dan, dan.accountId, 300, await b.authorize(dan, { operation: 'withdraw', fromAccountId: dan.accountId, amountMinor: 300 }), key)).status).toBe(201);
    expect(await ledgerOf(dan.accountId)).toEqual(expect.arrayContaining([1_000, -300]));
    expect((await keyState(url, key)).ledger).toHaveLength(1);
  });

  it('stores nothing for a request that is not valid, and points at each fault (RFC 9457 errors)', async () => {
    const key = newKey();
    const invalid = await b.deposit(ada, ada.accountId, 0, key);
    expect(outcome(invalid)).toEqual([400, 'VALIDATION_FAILED']);
    expect(invalid.body.errors).toEqual([{ detail: 'must be >= 1', pointer: '#/amountMinor' }]);
    expect((await keyState(url, key)).records).toEqual([]);
    expect((await b.deposit(ada, ada.accountId, 1, key)).status).toBe(201);

    const badLimit = await b.transactions(ada, { accountId: ada.accountId, limit: 1000 });
    expect([badLimit.status, badLimit.body.errors]).toEqual([400, [{ detail: 'must be <= 100', parameter: 'limit' }]]);
    const badKey = await call(api.url, 'POST', `/api/accounts/${ada.accountId}/deposits`, { token: ada.token, body: { amountMinor: 1 }, headers: { 'idempotency-key': 'short' } });
    expect(badKey.body.errors).toEqual([expect.objectContaining({ header: 'idempotency-key' })]);
  });

  it('names its wait on 409 IDEMPOTENCY_IN_FLIGHT (Retry-After and retryAfterSeconds)', async () => {
    const key = newKey();
    const requestHash = hashRequest('deposit', { accountId: ada.accountId }, { amountMinor: 400 });
    await query(url, `INSERT INTO idempotency_records (id, user_id, key, operation_id, request_hash, status, owner_token)
      VALUES (gen_random_uuid(), $1, $2, 'deposit', $3, 'Processing', gen_random_uuid())`, [ada.userId, key, requestHash]);
    const reply = await b.deposit(ada, ada.accountId, 400, key);
    expect(outcome(reply)).toEqual([409, 'IDEMPOTENCY_IN_FLIGHT']);
    expect(reply.headers.get('retry-after')).toBe('1');
    expect(reply.body.retryAfterSeconds).toBe(1);
  });

  it('gives an account the key it was opened with, in its answer and in the list', async () => {
    const key = newKey();
    const opened = await call(api.url, 'POST', '/api/accounts', { token: ada.token, body: { name: 'Keyed' }, headers: { 'idempotency-key': key } });
    expect([opened.status, opened.body.idempotencyKey]).toEqual([201, key]);
    const unkeyed = await call(api.url, 'POST', '/api/accounts', { token: ada.token, body: { name: 'Unkeyed' } });
    expect(unkeyed.body.idempotencyKey).toBeNull();
    const list = await call(api.url, 'GET', '/api/accounts', { token: ada.token });
    const byName = Object.fromEntries(list.body.items.map((a: { name: string; idempotencyKey: string | null }) => [a.name, a.idempotencyKey]));
    expect(byName).toMatchObject({ Keyed: key, Unkeyed: null, Everyday: null });
  });

  it('reads a transfer back by id as its 201 answered it; to anyone else, the payee included, it is 404', async () => {
    expect((await b.deposit(ada, ada.accountId, 2_000)).status).toBe(201);
    const sent = await b.transfer(ada, { fromAccountId: ada.accountId, toHandle: grace.handle, amountMinor: 150 });
    expect(sent.status).toBe(201);
    const read = await call(api.url, 'GET', `/api/transfers/${sent.body.id}`, { token: ada.token });
    expect([read.status, read.body]).toEqual([200, sent.body]);
    const [leg] = await query<{ transfer: string }>(url, 'SELECT transfer_id::text AS transfer FROM ledger_entries WHERE account_id = $1 AND transfer_id IS NOT NULL', [grace.accountId]);
    expect(leg!.transfer).toBe(sent.body.id);
    expect(outcome(await call(api.url, 'GET', `/api/transfers/${sent.body.id}`, { token: grace.token }))).toEqual([404, 'NOT_FOUND']);
    expect(outcome(await call(api.url, 'GET', '/api/transfers/6a0f7c2e-3b1d-4e5f-9a8b-7c6d5e4f3a2b', { token: ada.token }))).toEqual([404, 'NOT_FOUND']);
  });
});
