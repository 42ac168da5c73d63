/**
 * A money send the deadline cuts short: it owns its claim and no commit started, so the
 * 503 the router answers at the deadline says `applied: false`, and the claim is released
 * behind it so the same key can be sent again. (The send waits for an account row lock that
 * another connection holds, and then the database hangs: only the deadline can answer.)
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ApiProcess } from '@tidewater/test-support/apiProcess';
import { bankOnPostgres, type BankOnPostgres } from '@tidewater/test-support/bankOnPostgres';
import type { PgCluster } from '@tidewater/test-support/pgCluster';
import { newKey, outcome, type Bank, type Customer } from '@tidewater/test-support/bank';
import { holdingAccount, untilKeyReleased, untilSomeoneWaitsForALock } from '@tidewater/test-support/bankDatabase';
import { shortDeadlineEnv } from '../support/shortDeadline.ts';


describe('a money send at its deadline', () => {
  let setup: BankOnPostgres;
  let cluster: PgCluster;
  let url: string;
  let api: ApiProcess;
  let b: Bank;
  let ada: Customer;

  beforeAll(async () => {
    setup = await bankOnPostgres({
      env: shortDeadlineEnv,
    });
    ({ cluster, url, api, bank: b } = setup);
    ada = await b.signUp();
  });
  afterAll(() => setup?.stop());

  it('answers 503 with applied: false, and the key works again', async () => {
    const key = newKey();
    const started = Date.now();
    // The deposit owns its claim and waits for our lock; then the database hangs.
    const reply = await holdingAccount(url, ada.accountId, async () => {
      const pending = b.deposit(ada, ada.accountId, 700, key);
      await untilSomeoneWaitsForALock(url);
      await cluster.pause();
      try {
        return await pending;
      } finally {
        await cluster.resume();
      }
    });
    const elapsed = Date.now() - started;
    const answeredBy = api.logLines.filter((line) => line.includes(reply.body.traceId) && line.includes('"msg":"request failed"'));
    expect(answeredBy.some((line) => line.includes('DeadlineExceeded'))).toBe(true);
    expect(outcome(reply)).toEqual([503, 'SERVICE_UNAVAILABLE']);
    expect(reply.body).toMatchObject({ applied: false, retryAfterSeconds: 10 });
    expect(elapsed).toBeGreaterThanOrEqual(1_400);
    expect(elapsed).toBeLessThan(1_500 + 2_000);
    // The claim is released behind the answer (the abandoned work ends at the statement timeout).
    expect(await untilKeyReleased(url, key)).toEqual({ ledger: [], records: [] });
    expect((await b.deposit(ada, ada.accountId, 700, key)).status).toBe(201);
  });
});
