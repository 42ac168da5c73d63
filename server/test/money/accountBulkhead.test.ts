/**
 * The account bulkhead (adr/0024) on PostgreSQL, one worker, ACCOUNT_SENDS_AT_ONCE=2: a
 * separate connection holds an account's row lock. However many sends to it come, at most
 * two of them hold a permit and wait at the lock (each holding a connection); the others
 * wait in the bulkhead's queue, holding none, so a send to another account goes through
 * meanwhile. A send still queued at its deadline answers 503 with applied: false, moves
 * nothing and frees its key.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { setTimeout as sleep } from 'node:timers/promises';
import { bankOnPostgres, type BankOnPostgres } from '@tidewater/test-support/bankOnPostgres';
import { newKey, outcome, type Bank, type Customer } from '@tidewater/test-support/bank';
import { holdingAccount, query, untilKeyReleased, untilSomeoneWaitsForALock } from '@tidewater/test-support/bankDatabase';
import { shortDeadlineEnv } from '../support/shortDeadline.ts';

/** Backends of the API waiting for a row lock now. */
async function lockWaiters(url: string): Promise<number> {
  const [row] = await query<{ waiting: number }>(url, "SELECT count(*)::int AS waiting FROM pg_stat_activity WHERE wait_event_type = 'Lock'");
  return row!.waiting;
}

/** The most lock waiters seen while `pending` had not settled, sampled every 10 ms for `ms`. */
async function mostLockWaiters(url: string, ms: number): Promise<number> {
  let most = 0;
  for (const end = Date.now() + ms; Date.now() < end; await sleep(10)) most = Math.max(most, await lockWaiters(url));
  return most;
}

describe('the account bulkhead', () => {
  let setup: BankOnPostgres;
  let url: string;
  let b: Bank;
  let ada: Customer;

  beforeAll(async () => {
    setup = await bankOnPostgres({
      env: { ...shortDeadlineEnv, ACCOUNT_SENDS_AT_ONCE: '2' },
    });
    ({ url, bank: b } = setup);
    ada = await b.signUpPatiently();
  });
  afterAll(() => setup?.stop());

  it('lets two sends wait at a locked account and queues the rest; another account is served meanwhile; all land once it is free', async () => {
    const other = await b.openAccount(ada, 'Elsewhere');
    const before = await b.balance(ada, ada.accountId);
    const { replies, most, elsewhere } = await holdingAccount(url, ada.accountId, async (inside) => {
      const pending = Promise.all(Array.from({ length: 6 }, (_, i) => b.deposit(ada, ada.accountId, 100 + i)));
      await untilSomeoneWaitsForALock(url);
      const seen = await mostLockWaiters(url, 300);
      // The pool has room for a send elsewhere: the four queued hold no connection.
      const served = await b.deposit(ada, other, 5);
      await inside.query('ROLLBACK');
      return { replies: await pending, most: seen, elsewhere: served };
    });
    expect(most).toBe(2);
    expect(elsewhere.status).toBe(201);
    expect(replies.map((reply) => reply.status)).toEqual([201, 201, 201, 201, 201, 201]);
    expect(await b.balance(ada, ada.accountId)).toBe(before + 6 * 100 + 15);
  });

  it('answers a send still queued at its deadline 503 with applied: false; nothing moved, and its key works again', async () => {
    const keys = Array.from({ length: 4 }, () => newKey());
    const before = await b.balance(ada, ada.accountId);
    const { replies, most } = await holdingAccount(url, ada.accountId, async () => {
      const pending = Promise.all(keys.map((key) => b.deposit(ada, ada.accountId, 100, key)));
      await untilSomeoneWaitsForALock(url);
      const seen = await mostLockWaiters(url, 300);
      // Held past every deadline: the two at the lock are cancelled, the two queued leave the queue.
      return { replies: await pending, most: seen };
    });
    expect(most).toBe(2);
    for (const reply of replies) {
      expect(outcome(reply)).toEqual([503, 'SERVICE_UNAVAILABLE']);
      expect(reply.body).toMatchObject({ applied: false });
    }
    for (const key of keys) expect(await untilKeyReleased(url, key)).toEqual({ ledger: [], records: [] });
    expect(await b.balance(ada, ada.accountId)).toBe(before);
    for (const key of keys) expect((await b.deposit(ada, ada.accountId, 100, key)).status).toBe(201);
    expect(await b.balance(ada, ada.accountId)).toBe(before + 400);
  });
});

describe('the account bulkhead of a held account', () => {
  let setup: BankOnPostgres;
  let url: string;
  let b: Bank;
  let ada: Customer;

  beforeAll(async () => {
    // A send's lock waits (4 × 100 ms) fit the deadline (1.5 s) once, not four times over.
    setup = await bankOnPostgres({ env: { ...shortDeadlineEnv, ACCOUNT_SENDS_AT_ONCE: '2', ACCOUNT_LOCK_WAIT_MS: '100', ACCOUNT_WRITE_ATTEMPTS: '4' } });
    ({ url, bank: b } = setup);
    ada = await b.signUpPatiently();
  });
  afterAll(() => setup?.stop());

  it('answers busy to every send of a crowd, those still queued too, long before the deadline', async () => {
    const started = Date.now();
    const replies = await holdingAccount(url, ada.accountId, () => Promise.all(Array.from({ length: 12 }, (_, i) => b.deposit(ada, ada.accountId, 100 + i))));
    // In pairs, each pair spending its 400 ms of lock waits, the last ones would meet the deadline (503, 10 s).
    for (const reply of replies) {
      expect(outcome(reply)).toEqual([503, 'SERVICE_UNAVAILABLE']);
      expect(reply.body).toMatchObject({ retryAfterSeconds: 1, applied: false });
    }
    expect(Date.now() - started).toBeLessThan(1_500);
    expect(await b.balance(ada, ada.accountId)).toBe(0);
  });
});
