/**
 * What `moneySend` promises beyond the happy path (adr/0044), on PostgreSQL against a
 * sandbox API: a refusal of the bank's rules is final and stored under the key (its
 * resend replays it); what the bank did not decide is handed back, storing nothing; at its
 * bound it says `not-applied` only when the last word was that nothing moved, else
 * `unknown`, and a later send under the same key moves the money once. Money from the database.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bankOnPostgres, type BankOnPostgres } from '@tidewater/test-support/bankOnPostgres';
import { moneySend } from '../src/index.ts';
import { approve, balanceOf, movedUnder, signUp, type TestCustomer } from './testBank.ts';

describe('moneySend at its edges', () => {
  let setup: BankOnPostgres;
  let ada: TestCustomer;
  const deposit = (amountMinor: number, extra: { idempotencyKey?: string; simulate?: 'unavailable-not-applied' | 'unavailable-unknown-not-landed' } = {}, accountId?: string) =>
    moneySend(ada.api, { path: '/api/accounts/{accountId}/deposits', pathParams: { accountId: accountId ?? ada.accountId }, body: { amountMinor }, ...extra }, { maxAttempts: 1 });

  beforeAll(async () => {
    setup = await bankOnPostgres({ env: { API_SANDBOX: 'true', DB_RETRY_MAX_DELAY_MS: '1000' } });
    ada = await signUp(setup.api.url);
  });
  afterAll(() => setup?.stop());

  it('ends a refusal of the bank\'s rules as refused, and its resend replays it', async () => {
    const stranger = '3f1c2a9e-6b7d-4c1e-9a3b-2f5e8d7c6b1a';
    const first = await deposit(100, {}, stranger);
    expect(first).toMatchObject({ kind: 'refused', status: 404, replayed: false, problem: { errorCode: 'ACCOUNT_NOT_FOUND' } });
    const again = await deposit(100, { idempotencyKey: first.key }, stranger);
    expect(again).toMatchObject({ kind: 'refused', status: 404, replayed: true });
  });

  it('hands back what the bank did not decide, with nothing stored under the key', async () => {
    const result = await moneySend(ada.api, { path: '/api/accounts/{accountId}/withdrawals', pathParams: { accountId: ada.accountId }, body: { amountMinor: 100, authorizationId: '9d2f4b6a-1c3e-4a5b-8d7f-0e1a2b3c4d5e' } });
    expect(result).toMatchObject({ kind: 'rejected', status: 401, attempts: 1 });
    const status = await ada.api.GET('/api/idempotency-keys/{key}', { params: { path: { key: result.key } } });
    expect(status.data?.state).toBe('unknown');
  });

  it('gives up as not-applied after a 503 that says nothing moved, and nothing did', async () => {
    const result = await deposit(200, { simulate: 'unavailable-not-applied' });
    expect(result).toMatchObject({ kind: 'not-applied', attempts: 1, problem: { applied: false } });
    expect(await movedUnder(setup.url, result.key)).toEqual([]);
  });

  it('gives up as unknown while the key is held, and the same key later moves the money once', async () => {
    const result = await deposit(300, { simulate: 'unavailable-unknown-not-landed' });
    expect(result).toMatchObject({ kind: 'unknown', attempts: 1 });
    expect(result.kind === 'unknown' && result.problem?.applied).toBeUndefined();
    const later = await moneySend(ada.api, { path: '/api/accounts/{accountId}/deposits', pathParams: { accountId: ada.accountId }, body: { amountMinor: 300 }, idempotencyKey: result.key });
    expect(later).toMatchObject({ kind: 'sent', key: result.key });
    expect(await movedUnder(setup.url, result.key)).toEqual([300]);
  });
});

describe('moneySend when its key already holds an answer (422 IDEMPOTENCY_KEY_REUSED)', () => {
  let setup: BankOnPostgres;
  let ada: TestCustomer;
  const withdrawal = (accountId: string, authorizationId: string, idempotencyKey: string) =>
    moneySend(ada.api, { path: '/api/accounts/{accountId}/withdrawals', pathParams: { accountId }, body: { amountMinor: 700, authorizationId }, idempotencyKey }, { maxAttempts: 1 });

  beforeAll(async () => {
    setup = await bankOnPostgres({});
    ada = await signUp(setup.api.url);
    const funded = await moneySend(ada.api, { path: '/api/accounts/{accountId}/deposits', pathParams: { accountId: ada.accountId }, body: { amountMinor: 5_000 } });
    expect(funded.kind).toBe('sent');
  });
  afterAll(() => setup?.stop());

  it('takes the landed answer of the same payment re-approved, as the docs say, and the money moves once', async () => {
    const key = crypto.randomUUID();
    const payment = { operation: 'withdraw', fromAccountId: ada.accountId, amountMinor: 700 } as const;
    const first = await withdrawal(ada.accountId, await approve(ada, payment), key);
    expect(first).toMatchObject({ kind: 'sent', replayed: false });
    // The answer was lost to the caller; it re-approves and sends the same request under the same key.
    const again = await withdrawal(ada.accountId, await approve(ada, payment), key);
    expect(again).toMatchObject({ kind: 'sent', replayed: true, key, attempts: 1 });
    expect(again.kind === 'sent' && first.kind === 'sent' && again.data.id).toBe(first.kind === 'sent' && first.data.id);
    expect(await movedUnder(setup.url, key)).toEqual([-700]);
    expect(await balanceOf(setup.url, ada.accountId)).toBe(4_300);
  });

  it('takes a stored refusal of the same payment as refused', async () => {
    const key = crypto.randomUUID();
    const payment = { operation: 'withdraw', fromAccountId: ada.accountId, amountMinor: 900_000 } as const;
    const send = async () => moneySend(ada.api, { path: '/api/accounts/{accountId}/withdrawals', pathParams: { accountId: ada.accountId }, body: { amountMinor: 900_000, authorizationId: await approve(ada, payment) }, idempotencyKey: key }, { maxAttempts: 1 });
    expect(await send()).toMatchObject({ kind: 'refused', status: 422, replayed: false });
    expect(await send()).toMatchObject({ kind: 'refused', status: 422, replayed: true, problem: { errorCode: 'INSUFFICIENT_FUNDS' } });
  });

  it('hands back a key first used for another operation as rejected: that answer is not this payment\'s', async () => {
    const deposited = await moneySend(ada.api, { path: '/api/accounts/{accountId}/deposits', pathParams: { accountId: ada.accountId }, body: { amountMinor: 100 } });
    expect(deposited.kind).toBe('sent');
    const payment = { operation: 'withdraw', fromAccountId: ada.accountId, amountMinor: 700 } as const;
    const reused = await withdrawal(ada.accountId, await approve(ada, payment), deposited.key);
    expect(reused).toMatchObject({ kind: 'rejected', status: 422, problem: { errorCode: 'IDEMPOTENCY_KEY_REUSED' } });
    expect(await movedUnder(setup.url, deposited.key)).toEqual([100]);
  });
});
