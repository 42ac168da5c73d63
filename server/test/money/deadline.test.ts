/**
 * A money send the deadline cuts short. Every send is one statement that is its own commit
 * (adr/0027, adr/0041): ended at the database while the database answers, its 503 says
 * `applied: false` and the key works again; under a hung database (the send waits for an
 * account row lock that another connection holds, then the database hangs), only its answer
 * could tell, so the 503 says nothing of `applied`, and nothing moved. A deposit claims its key in
 * its one statement (adr/0070): rolled back, it leaves the key free; a transfer by handle, which
 * claims first, leaves its claim to go stale.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bankOnPostgres, type BankOnPostgres } from '@tidewater/test-support/bankOnPostgres';
import type { PgCluster } from '@tidewater/test-support/pgCluster';
import { newKey, outcome, type Bank, type Customer } from '@tidewater/test-support/bank';
import { holdingAccount, keyState, untilKeyReleased, untilNoOneWaitsForALock, untilSomeoneWaitsForALock } from '@tidewater/test-support/bankDatabase';
import { shortDeadlineEnv } from '../support/shortDeadline.ts';


describe('a money send at its deadline', () => {
  let setup: BankOnPostgres;
  let cluster: PgCluster;
  let url: string;
  let b: Bank;
  let ada: Customer;
  let grace: Customer;

  beforeAll(async () => {
    // The look for a lost commit's own row, scaled as the outage matrix scales it (3 s by
    // default): under a hung database it can only run out, and each hung case waited it out.
    setup = await bankOnPostgres({
      env: { ...shortDeadlineEnv, IDEMPOTENCY_STORE_BUDGET_MS: '300' },
    });
    ({ cluster, url, bank: b } = setup);
    // The set-up's own sends meet the 1.5 s deadline too: on a loaded machine, a sign-up's hashes can outlast it.
    ada = await b.signUpPatiently();
    grace = await b.signUpPatiently();
    expect((await b.deposit(ada, ada.accountId, 10_000)).status).toBe(201);
  });
  afterAll(() => setup?.stop());

  /**
   * Sends `send` while we hold ada's account lock; once it waits for that lock, the database
   * hangs until its answer. Resumed, the lock goes only once nothing waits for it any more: a
   * statement cancelled at the deadline takes its cancel first, so it can never commit late.
   */
  async function hungUnderOurLock<T>(send: () => Promise<T>): Promise<T> {
    return holdingAccount(url, ada.accountId, async () => {
      const pending = send();
      await untilSomeoneWaitsForALock(url);
      await cluster.pause();
      try {
        return await pending;
      } finally {
        await cluster.resume();
        await untilNoOneWaitsForALock(url);
      }
    });
  }

  it("says nothing of applied when the database hangs under a transfer's statement past the look, and nothing moved", async () => {
    // A transfer is one statement that is its own commit too (adr/0041): once it left, only its
    // answer can say whether it committed, as for a deposit below; before, a transfer's
    // transaction waiting for a lock had sent no COMMIT, and its 503 said `applied: false`.
    const key = newKey();
    const balance = await b.balance(ada, ada.accountId);
    const transfer = () => b.transfer(ada, { fromAccountId: ada.accountId, toHandle: grace.handle, amountMinor: 700 }, key);
    const reply = await hungUnderOurLock(transfer);
    expect(outcome(reply)).toEqual([503, 'SERVICE_UNAVAILABLE']);
    expect(reply.body).not.toHaveProperty('applied');
    expect((await keyState(url, key)).ledger).toEqual([]);
    expect(await b.balance(ada, ada.accountId)).toBe(balance);
    // Its look-ups claimed nothing, and its one statement's claim rolled back with it (adr/0076):
    // nothing holds the key, and the same key runs the transfer, once.
    expect((await keyState(url, key)).records).toEqual([]);
    expect(outcome(await transfer())).toEqual([201, null]);
    expect(outcome(await transfer())).toEqual([201, null]);
    expect(await b.balance(ada, ada.accountId)).toBe(balance - 700);
  }, 30_000);

  it("ends a deposit's statement that waits for a lock longer than its request may: 503 with applied: false, and the key works again", async () => {
    // The deposit's one statement is its own commit (adr/0027): no answer may come while it could
    // commit, so it is ended at the database (here by the statement timeout, 1 s, before the 1.5 s
    // deadline; commitGate.ownCommit.pg.test.ts has the deadline's own cancel), which rolls it back.
    const key = newKey();
    const started = Date.now();
    const reply = await holdingAccount(url, ada.accountId, () => b.deposit(ada, ada.accountId, 700, key));
    const elapsed = Date.now() - started;
    expect(outcome(reply)).toEqual([503, 'SERVICE_UNAVAILABLE']);
    expect(reply.body).toMatchObject({ applied: false });
    expect(elapsed).toBeGreaterThanOrEqual(900);
    expect(elapsed).toBeLessThan(1_500 + 2_000);
    expect(await untilKeyReleased(url, key)).toEqual({ ledger: [], records: [] });
    expect((await b.deposit(ada, ada.accountId, 700, key)).status).toBe(201);
  });

  it("says nothing of applied when the database hangs under a deposit's statement past the look, and nothing moved", async () => {
    // Once the statement left, only its answer can say whether it committed; a hung database gives
    // none within the deadline and the cancel's acknowledgement (5 s), nor to the look (0.3 s here),
    // which the answer waits for.
    const key = newKey();
    const balance = await b.balance(ada, ada.accountId);
    const reply = await hungUnderOurLock(() => b.deposit(ada, ada.accountId, 800, key));
    expect(outcome(reply)).toEqual([503, 'SERVICE_UNAVAILABLE']);
    expect(reply.body).not.toHaveProperty('applied');
    // Resumed, the database takes the cancel: the statement rolled back, and moved nothing.
    expect((await keyState(url, key)).ledger).toEqual([]);
    expect(await b.balance(ada, ada.accountId)).toBe(balance);
    // The deposit claimed its key in that same statement (adr/0070), so its claim rolled back with it: nothing holds
    // the key, and the same key runs the deposit, once.
    expect((await keyState(url, key)).records).toEqual([]);
    expect(outcome(await b.deposit(ada, ada.accountId, 800, key))).toEqual([201, null]);
    expect(outcome(await b.deposit(ada, ada.accountId, 800, key))).toEqual([201, null]);
    expect(await b.balance(ada, ada.accountId)).toBe(balance + 800);
  }, 30_000);
});
