/**
 * A COMMIT whose answer is lost and whose outcome is still being looked for when the
 * deadline passes (adr/0026): the look runs on under a budget of its own, and the answer
 * waits for it. The customer hears 201 when the money landed, not a 503 that leaves them
 * guessing while the bank already knows.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bankOnPostgres, type BankOnPostgres } from '@tidewater/test-support/bankOnPostgres';
import { newKey, outcome, type Bank, type Customer } from '@tidewater/test-support/bank';
import { keyState, query } from '@tidewater/test-support/bankDatabase';
import type { TcpProxy } from '@tidewater/test-support/tcpProxy';
import { shortDeadlineEnv } from '../support/shortDeadline.ts';

describe('a lost COMMIT settled after the deadline', () => {
  let setup: BankOnPostgres;
  let url: string;
  let proxy: TcpProxy;
  let b: Bank;
  let ada: Customer;
  let savings: string;

  beforeAll(async () => {
    // The look's own budget is the promise under test, not its size: 10 s keeps a loaded machine from answering "cannot tell".
    setup = await bankOnPostgres({ env: { ...shortDeadlineEnv, IDEMPOTENCY_STORE_BUDGET_MS: '10000' }, proxy: true });
    ({ url, bank: b } = setup);
    proxy = setup.proxy!;
    ada = await b.signUpPatiently();
    savings = await b.openAccount(ada, 'Savings');
    expect((await b.deposit(ada, ada.accountId, 10_000)).status).toBe(201);
  });
  afterAll(() => setup?.stop());

  it('answers 201 when the look, running past the deadline, finds the money landed', async () => {
    // A deferred trigger holds this transfer's COMMIT at the server for 2 s, past the 1.5 s
    // deadline; the proxy cuts the connection as soon as it forwarded the COMMIT.
    await query(url, `CREATE FUNCTION slow_commit() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN IF NEW.amount_minor = -321 THEN PERFORM pg_sleep(2); END IF; RETURN NULL; END $$`);
    await query(url, `CREATE CONSTRAINT TRIGGER slow_commit AFTER INSERT ON ledger_entries
      DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION slow_commit()`);
    try {
      const key = newKey();
      const balance = await b.balance(ada, ada.accountId);
      const fired = proxy.arm('cutAfter', '"operation":"createInternalTransfer","amountMinor":321,');
      const started = performance.now();
      // Between the customer's own accounts: no step-up, whose own COMMIT the proxy would cut first.
      const reply = await b.transfer(ada, { fromAccountId: ada.accountId, toAccountId: savings, amountMinor: 321, description: 'late' }, key);
      const tookMs = performance.now() - started;
      expect(fired()).toBe(1);
      expect(outcome(reply)).toEqual([201, null]);
      expect(tookMs).toBeGreaterThan(1_500); // it did outlive the deadline
      expect((await keyState(url, key)).ledger).toHaveLength(2); // both legs, once
      expect(await b.balance(ada, ada.accountId)).toBe(balance - 321);
    } finally {
      proxy.disarm();
      await query(url, 'DROP TRIGGER slow_commit ON ledger_entries; DROP FUNCTION slow_commit()');
    }
  });
});
