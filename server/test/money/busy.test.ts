/**
 * Busy accounts on PostgreSQL (ACCOUNT_LOCK_WAIT_MS=100, ACCOUNT_WRITE_ATTEMPTS=2): a
 * separate connection holds a row lock so that every attempt of a send loses its wait.
 * The send answers 503 busy (1 s, applied: false) only after re-checking what an attempt
 * checks: an account closed meanwhile, funds, the daily ceiling and the step-up
 * authorisation answer their own problems instead. A busy answer releases the key and
 * spends no authorisation; account changes answer busy without `applied`.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bankOnPostgres, type BankOnPostgres } from '@tidewater/test-support/bankOnPostgres';
import type { Reply } from '@tidewater/test-support/httpClient';
import { newKey, outcome, type Bank, type Customer } from '@tidewater/test-support/bank';
import { holdingAccount, holdingLock, keyState, query, untilSomeoneWaitsForALock } from '@tidewater/test-support/bankDatabase';

const iban = 'DE89370400440532013000';

/** The whole shape of a busy answer. */
function expectBusy(reply: Reply, applied: false | undefined) {
  expect(outcome(reply)).toEqual([503, 'SERVICE_UNAVAILABLE']);
  expect(reply.headers.get('retry-after')).toBe('1');
  expect(reply.headers.get('cache-control')).toBe('no-store');
  expect(reply.body.retryAfterSeconds).toBe(1);
  if (applied === undefined) expect(reply.body).not.toHaveProperty('applied');
  else expect(reply.body.applied).toBe(applied);
}

describe('busy accounts on PostgreSQL', () => {
  let setup: BankOnPostgres;
  let url: string;
  let b: Bank;
  let ada: Customer;

  beforeAll(async () => {
    setup = await bankOnPostgres({
      env: {
        VALIDATE_RESPONSES: '1',
        ACCOUNT_LOCK_WAIT_MS: '100',
        ACCOUNT_WRITE_ATTEMPTS: '2',
        DAILY_SEND_LIMIT_MINOR: '10000',
      },
    });
    ({ url, bank: b } = setup);
    ada = await b.signUp();
    await b.deposit(ada, ada.accountId, 50_000);
  });
  afterAll(() => setup?.stop());

  it('answers a deposit that loses its account on every attempt 503 busy, 1 s, applied: false, and frees its key', async () => {
    const key = newKey();
    const started = Date.now();
    const reply = await holdingAccount(url, ada.accountId, () => b.deposit(ada, ada.accountId, 100, key));
    expectBusy(reply, false);
    // Two lock waits of 100 ms, bounded by the locking statement itself (adr/0021), long before the deadline.
    expect(Date.now() - started).toBeGreaterThanOrEqual(200);
    expect(Date.now() - started).toBeLessThan(5_000);
    expect(await keyState(url, key)).toEqual({ ledger: [], records: [] });
    const balance = await b.balance(ada, ada.accountId);
    expect((await b.deposit(ada, ada.accountId, 100, key)).status).toBe(201);
    expect(await b.balance(ada, ada.accountId)).toBe(balance + 100);
  });

  it('answers busy for a transfer that loses the payee\'s account', async () => {
    const savings = await b.openAccount(ada, 'Busy savings');
    const reply = await holdingAccount(url, savings, () => b.transfer(ada, { fromAccountId: ada.accountId, toAccountId: savings, amountMinor: 100 }));
    expectBusy(reply, false);
  });

  it('answers 404 instead of busy for an account closed meanwhile', async () => {
    const spare = await b.openAccount(ada, 'Closed meanwhile');
    expect((await b.close(ada, spare)).status).toBe(200);
    // The attempts never see the account (its lock is held): only the re-check can answer 404.
    const reply = await holdingAccount(url, spare, () => b.deposit(ada, spare, 100));
    expect(outcome(reply)).toEqual([404, 'ACCOUNT_NOT_FOUND']);

    // Closed by the very transaction whose lock the deposit waits for.
    const other = await b.openAccount(ada, 'Closed while waiting');
    const whileWaiting = await holdingAccount(url, other, async (inside) => {
      const pending = b.deposit(ada, other, 100);
      await untilSomeoneWaitsForALock(url);
      await inside.query("UPDATE accounts SET status = 'closed', closed_at = now() WHERE id = $1", [other]);
      await inside.query('COMMIT');
      return pending;
    });
    expect(outcome(whileWaiting)).toEqual([404, 'ACCOUNT_NOT_FOUND']);
  });

  it('answers 422 instead of busy when the funds are not there', async () => {
    const balance = await b.balance(ada, ada.accountId);
    const authorizationId = await b.authorize(ada, { operation: 'withdraw', fromAccountId: ada.accountId, amountMinor: balance + 1 });
    // The attempts never see the balance (its lock is held): only the re-check can answer 422.
    const reply = await holdingAccount(url, ada.accountId, () => b.withdraw(ada, ada.accountId, balance + 1, authorizationId));
    expect(outcome(reply)).toEqual([422, 'INSUFFICIENT_FUNDS']);
  });

  it("answers 422 instead of busy when the day's ceiling is reached", async () => {
    const carol = await b.signUp();
    await b.deposit(carol, carol.accountId, 50_000);
    const authorizationId = await b.authorize(carol, { operation: 'createExternalTransfer', fromAccountId: carol.accountId, iban, beneficiaryName: 'Grace', amountMinor: 10_001 });
    // An external transfer locks the customer's row first; hold it, over the ceiling of 100.00.
    const reply = await holdingLock(url, 'SELECT id FROM users WHERE id = $1 FOR NO KEY UPDATE', [carol.userId], () =>
      b.external(carol, { fromAccountId: carol.accountId, iban, beneficiaryName: 'Grace', amountMinor: 10_001, authorizationId }),
    );
    expect(outcome(reply)).toEqual([422, 'DAILY_LIMIT_EXCEEDED']);
  });

  it.each([
    ['spent by another request', "UPDATE step_up_authorizations SET used_at = now() WHERE id = $1", 'AUTHORIZATION_INVALID'],
    ['expired', "UPDATE step_up_authorizations SET expires_at = now() - interval '1 second' WHERE id = $1", 'AUTHORIZATION_EXPIRED'],
  ])('answers 401 instead of busy for an authorisation %s meanwhile', async (_name, change, errorCode) => {
    const authorizationId = await b.authorize(ada, { operation: 'withdraw', fromAccountId: ada.accountId, amountMinor: 100 });
    const reply = await holdingAccount(url, ada.accountId, async () => {
      const pending = b.withdraw(ada, ada.accountId, 100, authorizationId);
      await untilSomeoneWaitsForALock(url); // past the look before the first attempt
      await query(url, change, [authorizationId]);
      return pending;
    });
    expect(outcome(reply)).toEqual([401, errorCode]);
  });

  it('spends no authorisation on a busy answer: the same one and the same key work once the account is free', async () => {
    const authorizationId = await b.authorize(ada, { operation: 'withdraw', fromAccountId: ada.accountId, amountMinor: 100 });
    const key = newKey();
    const busy = await holdingAccount(url, ada.accountId, () => b.withdraw(ada, ada.accountId, 100, authorizationId, key));
    expectBusy(busy, false);
    const [row] = await query<{ used_at: Date | null }>(url, 'SELECT used_at FROM step_up_authorizations WHERE id = $1', [authorizationId]);
    expect(row!.used_at).toBeNull();
    expect((await b.withdraw(ada, ada.accountId, 100, authorizationId, key)).status).toBe(201);
  });

  it('answers busy for an external transfer whose customer row stays locked, after its checks pass', async () => {
    const authorizationId = await b.authorize(ada, { operation: 'createExternalTransfer', fromAccountId: ada.accountId, iban, beneficiaryName: 'Grace', amountMinor: 100 });
    const reply = await holdingLock(url, 'SELECT id FROM users WHERE id = $1 FOR NO KEY UPDATE', [ada.userId], () =>
      b.external(ada, { fromAccountId: ada.accountId, iban, beneficiaryName: 'Grace', amountMinor: 100, authorizationId }),
    );
    expectBusy(reply, false);
  });

  it('answers busy for a rename and a closure, without applied (they hold no key)', async () => {
    const spare = await b.openAccount(ada, 'Busy spare');
    const renamed = await holdingAccount(url, spare, () => b.rename(ada, spare, 'New name'));
    expectBusy(renamed, undefined);
    const closed = await holdingAccount(url, spare, () => b.close(ada, spare));
    expectBusy(closed, undefined);
    // The re-check before a busy closure refuses what an attempt refuses.
    await b.deposit(ada, spare, 1);
    expect(outcome(await holdingAccount(url, spare, () => b.close(ada, spare)))).toEqual([422, 'ACCOUNT_NOT_EMPTY']);
    expect((await b.account(ada, spare)).body).toMatchObject({ name: 'Busy spare', status: 'open' });
  });
});
