/**
 * A money send is one statement and one commit (adr/0070, adr/0076): the claim of its
 * Idempotency-Key, the rules, the movement and the stored answer travel together in
 * `money_send_claiming`, for a send that waited in the account bulkhead too (it claims
 * nothing while it waits: a duplicate meanwhile answers 409 from the process that holds its
 * key) and for a transfer by handle (its look-up's count and its payee read are in that statement, adr/0079).
 * Counted on a real PostgreSQL by the transaction ids the API's sends consume (every
 * transaction that writes takes one, a read takes none): one per deposit, where a separate
 * claim made it two. The claim's conflict answers come from the same call: a replay sends
 * the stored bytes, another payload is 422, and none of them writes; a second request with
 * the key of a send whose statement is running answers 409 at once, never waiting for its commit.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bankOnPostgres, type BankOnPostgres } from '@tidewater/test-support/bankOnPostgres';
import { newKey, outcome, type Customer } from '@tidewater/test-support/bank';
import { holdingAccount, keyState, query, untilSomeoneWaitsForALock } from '@tidewater/test-support/bankDatabase';
import { call } from '@tidewater/test-support/httpClient';
import { uniqueHandle } from '@tidewater/test-support/handles';

/** The next transaction id of the cluster once none runs (a snapshot's xmax: one past the last that ended): read without taking one. */
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
  let grace: Customer;

  /** What the key's read says of `key` of ada's. */
  const keyRead = async (key: string) => (await call(setup.api.url, 'GET', `/api/idempotency-keys/${key}`, { token: ada.token })).body.state;

  beforeAll(async () => {
    // Lock waits long enough for a test to act while a send waits at its account; one permit
    // per account, so a second send to a busy account waits in the bulkhead; 3 payee look-ups a minute.
    setup = await bankOnPostgres({ env: { VALIDATE_RESPONSES: '1', ACCOUNT_LOCK_WAIT_MS: '5000', ACCOUNT_SENDS_AT_ONCE: '1', PAYEE_LOOKUP_LIMIT: '3' } });
    [ada, grace] = await Promise.all([setup.bank.signUp(), setup.bank.signUp()]);
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
      // What a request of another process meets (this one holds the key itself): the statement's hold on the key.
      const [elsewhere] = await query<{ verdict: string }>(setup.url,
        "SELECT verdict FROM claim_key(gen_random_uuid(), gen_random_uuid(), $1, $2, 'deposit', 'h', 120000)", [ada.userId, key]);
      expect(elsewhere!.verdict).toBe('in_flight');
      await inside.query('ROLLBACK');
      return pending;
    });
    expect(outcome(first)).toEqual([201, null]);
    expect(outcome(await setup.bank.deposit(ada, ada.accountId, 300, key))).toEqual([201, null]);
    expect((await keyState(setup.url, key)).ledger).toEqual([{ account_id: ada.accountId, amount_minor: '300' }]);
  });

  it('writes one transaction for a deposit that waited in the bulkhead, which claimed nothing while it waited; a duplicate meanwhile answers 409, another payload 422', async () => {
    const key = newKey();
    let queued: Awaited<ReturnType<typeof setup.bank.deposit>> | undefined;
    // A snapshot's xmax counts only transactions that ended: the count starts and ends with none running.
    const writes = await writesDuring(setup.url, () => holdingAccount(setup.url, ada.accountId, async (inside) => {
      // The deposit ahead takes the account's one permit and waits at its lock.
      const ahead = setup.bank.deposit(ada, ada.accountId, 1, newKey());
      await untilSomeoneWaitsForALock(setup.url);
      const pending = setup.bank.deposit(ada, ada.accountId, 400, key);
      while ((await keyRead(key)) !== 'inFlight') await sleep(10);
      // It waits for the permit holding no claim: the process that holds its key answers for it.
      expect((await keyState(setup.url, key)).records).toEqual([]);
      expect(outcome(await setup.bank.deposit(ada, ada.accountId, 400, key))).toEqual([409, 'IDEMPOTENCY_IN_FLIGHT']);
      expect(outcome(await setup.bank.deposit(ada, ada.accountId, 401, key))).toEqual([422, 'IDEMPOTENCY_KEY_REUSED']);
      await inside.query('ROLLBACK');
      expect(outcome(await ahead)).toEqual([201, null]);
      queued = await pending;
    }));
    expect(outcome(queued!)).toEqual([201, null]);
    // The lock holder's row lock, the deposit ahead and the one that waited: one each.
    expect(writes).toBe(3);
    expect(await keyRead(key)).toBe('landed');
    expect((await keyState(setup.url, key)).ledger).toEqual([{ account_id: ada.accountId, amount_minor: '400' }]);
  });

  it('writes a transfer by handle, its payee look-up counted, as one statement, and its replay writes nothing', async () => {
    await setup.bank.deposit(ada, ada.accountId, 5_000);
    const key = newKey();
    await setup.bank.approveAhead(ada, key, { operation: 'createInternalTransfer', fromAccountId: ada.accountId, amountMinor: 700, toHandle: grace.handle });
    const transfer = () => setup.bank.transfer(ada, { fromAccountId: ada.accountId, toHandle: grace.handle, amountMinor: 700 }, key);
    let first: Awaited<ReturnType<typeof transfer>> | undefined;
    const lookups = async () => (await query<{ n: string }>(setup.url, 'SELECT count(*)::text AS n FROM payee_lookups WHERE user_id = $1', [ada.userId]))[0]!.n;
    const lookupsBefore = await lookups();
    // The authorisation, the account, the look-up's count and the payee, in adr/0064's order, all inside the one statement (adr/0079).
    expect(await writesDuring(setup.url, async () => void (first = await transfer()))).toBe(1);
    expect(outcome(first!)).toEqual([201, null]);
    expect(Number(await lookups())).toBe(Number(lookupsBefore) + 1);
    let replay: Awaited<ReturnType<typeof transfer>> | undefined;
    expect(await writesDuring(setup.url, async () => void (replay = await transfer()))).toBe(0);
    expect(outcome(replay!)).toEqual([201, null]);
    expect(replay!.body).toEqual(first!.body);
    const moved = await query<{ account_id: string; amount_minor: string }>(
      setup.url, 'SELECT account_id, amount_minor::text AS amount_minor FROM ledger_entries WHERE transfer_id = $1 ORDER BY amount_minor', [first!.body.id]);
    expect(moved).toEqual([{ account_id: ada.accountId, amount_minor: '-700' }, { account_id: grace.accountId, amount_minor: '700' }]);
  });

  it("counts a transfer to an absent handle's look-up with its refusal, counts none for its replay, and none past the limit (429)", async () => {
    const eve = await setup.bank.signUp();
    await setup.bank.deposit(eve, eve.accountId, 5_000);
    const lookups = async () => Number((await query<{ n: string }>(setup.url, 'SELECT count(*)::text AS n FROM payee_lookups WHERE user_id = $1', [eve.userId]))[0]!.n);
    const toAbsent = async (key = newKey()) => {
      const payment = { operation: 'createInternalTransfer', fromAccountId: eve.accountId, amountMinor: 100, toHandle: uniqueHandle('absent') } as const;
      await setup.bank.approveAhead(eve, key, payment);
      return { key, send: () => setup.bank.transfer(eve, { fromAccountId: eve.accountId, toHandle: payment.toHandle, amountMinor: 100 }, key) };
    };
    const absent = await toAbsent();
    expect(outcome(await absent.send())).toEqual([404, 'PAYEE_NOT_FOUND']);
    expect(await lookups()).toBe(1);
    // The key's claim answers the replay before any count (adr/0079).
    const replay = await absent.send();
    expect([...outcome(replay), replay.headers.get('idempotent-replayed')]).toEqual([404, 'PAYEE_NOT_FOUND', 'true']);
    expect(await lookups()).toBe(1);
    for (let i = 0; i < 2; i++) expect(outcome(await (await toAbsent()).send())).toEqual([404, 'PAYEE_NOT_FOUND']);
    expect(await lookups()).toBe(3);
    const past = await toAbsent();
    const refused = await past.send();
    expect(outcome(refused)).toEqual([429, 'TOO_MANY_REQUESTS']);
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(refused.headers.get('ratelimit')).toBe(`"payee-lookups";r=0;t=${refused.headers.get('retry-after')}`);
    expect(await lookups()).toBe(3);
    // A 429 is not stored: the key is free again.
    expect((await keyState(setup.url, past.key)).records).toEqual([]);
  });
});
