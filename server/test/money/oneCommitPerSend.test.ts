/**
 * A money send is one statement and one commit (adr/0070): the claim of its Idempotency-Key,
 * the rules, the movement and the stored answer travel together in `money_send_claiming`.
 * Counted on a real PostgreSQL by the transaction ids the API's sends consume (every
 * transaction that writes takes one, a read takes none): one per deposit, where a separate
 * claim made it two. The claim's conflict answers come from the same call: a replay sends
 * the stored bytes, another payload is 422, and none of them writes; a second request with
 * the key of a send whose statement is running answers 409 at once, never waiting for its commit.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bankOnPostgres, type BankOnPostgres } from '@tidewater/test-support/bankOnPostgres';
import { newKey, outcome, type Customer } from '@tidewater/test-support/bank';
import { holdingAccount, keyState, query, untilSomeoneWaitsForALock } from '@tidewater/test-support/bankDatabase';

/** The next transaction id of the cluster: read without taking one. */
async function nextXid(url: string): Promise<bigint> {
  const [row] = await query<{ next: string }>(url, 'SELECT pg_snapshot_xmax(pg_current_snapshot())::text AS next');
  return BigInt(row!.next);
}

/** The transactions that wrote while `fn` ran. */
async function writesDuring(url: string, fn: () => Promise<void>): Promise<number> {
  const before = await nextXid(url);
  await fn();
  return Number((await nextXid(url)) - before);
}

describe('one commit per money send on PostgreSQL', () => {
  let setup: BankOnPostgres;
  let ada: Customer;

  beforeAll(async () => {
    // Lock waits long enough for a test to act while a send waits at its account.
    setup = await bankOnPostgres({ env: { VALIDATE_RESPONSES: '1', ACCOUNT_LOCK_WAIT_MS: '5000' } });
    ada = await setup.bank.signUp();
    // The first send of a process warms its pools; the count starts after it.
    expect(outcome(await setup.bank.deposit(ada, ada.accountId, 1))).toEqual([201, null]);
  });
  afterAll(() => setup?.stop());

  it('writes one transaction per deposit, and the money and its stored answer are there', async () => {
    const keys = Array.from({ length: 10 }, () => newKey());
    const writes = await writesDuring(setup.url, async () => {
      for (const key of keys) expect(outcome(await setup.bank.deposit(ada, ada.accountId, 100, key))).toEqual([201, null]);
    });
    expect(writes).toBe(keys.length);
    const landed = await query<{ landed: string; entries: string }>(
      setup.url,
      `SELECT count(*) FILTER (WHERE r.status = 'Executed' AND r.landed_at IS NOT NULL AND r.response_status = 201)::text AS landed,
              (SELECT count(*) FROM ledger_entries e WHERE e.idempotency_key = ANY($1))::text AS entries
       FROM idempotency_records r WHERE r.key = ANY($1)`,
      [keys],
    );
    expect(landed).toEqual([{ landed: '10', entries: '10' }]);
    const [balance] = await query<{ balance: string }>(setup.url, 'SELECT balance_minor::text AS balance FROM accounts WHERE id = $1', [ada.accountId]);
    expect(balance!.balance).toBe(String(1 + 100 * keys.length));
  });

  it('answers a replay and a reused key from the same call, writing nothing', async () => {
    const key = newKey();
    const first = await setup.bank.deposit(ada, ada.accountId, 250, key);
    expect(outcome(first)).toEqual([201, null]);
    const writes = await writesDuring(setup.url, async () => {
      const replay = await setup.bank.deposit(ada, ada.accountId, 250, key);
      expect(outcome(replay)).toEqual([201, null]);
      expect(replay.body).toEqual(first.body);
      expect(outcome(await setup.bank.deposit(ada, ada.accountId, 251, key))).toEqual([422, 'IDEMPOTENCY_KEY_REUSED']);
    });
    expect(writes).toBe(0);
    const [moved] = await query<{ n: string }>(setup.url, 'SELECT count(*)::text AS n FROM ledger_entries WHERE idempotency_key = $1', [key]);
    expect(moved!.n).toBe('1');
  });

  it('answers 409 IN_FLIGHT at once to the key of a deposit whose one statement waits at its account, which then lands once', async () => {
    const key = newKey();
    const first = await holdingAccount(setup.url, ada.accountId, async (inside) => {
      const pending = setup.bank.deposit(ada, ada.accountId, 300, key);
      await untilSomeoneWaitsForALock(setup.url);
      // Its claim is not committed yet: the second request learns it from the statement's hold on the key.
      expect((await keyState(setup.url, key)).records).toEqual([]);
      const second = await setup.bank.deposit(ada, ada.accountId, 300, key);
      expect(outcome(second)).toEqual([409, 'IDEMPOTENCY_IN_FLIGHT']);
      expect(Number(second.headers.get('retry-after'))).toBeGreaterThan(0);
      await inside.query('ROLLBACK');
      return pending;
    });
    expect(outcome(first)).toEqual([201, null]);
    expect(outcome(await setup.bank.deposit(ada, ada.accountId, 300, key))).toEqual([201, null]);
    expect((await keyState(setup.url, key)).ledger).toEqual([{ account_id: ada.accountId, amount_minor: '300' }]);
  });
});
