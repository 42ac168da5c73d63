/**
 * The idempotency protocol of money sends on PostgreSQL, over HTTP: one key moves money
 * once however often and however concurrently it is sent; its answer is replayed byte for
 * byte; another payload under it is 422; a claim left Processing is 409 until stale, then
 * taken over (nothing landed) or 409 RESULT_UNKNOWN with applied: true (money landed); a
 * claim taken over from under its request, or lost with a failover, makes that request a
 * 503 that moves nothing (adr/0029).
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hashRequest } from '../../src/domain/idempotency/idempotency.ts';
import type { ApiProcess } from '@tidewater/test-support/apiProcess';
import { bankOnPostgres, type BankOnPostgres } from '@tidewater/test-support/bankOnPostgres';
import { newKey, outcome, type Bank, type Customer } from '@tidewater/test-support/bank';
import { holdingAccount, keyState, query, untilSomeoneWaitsForALock } from '@tidewater/test-support/bankDatabase';
import { call } from '@tidewater/test-support/httpClient';
import { scrapeMetrics, sumOf } from '@tidewater/test-support/metrics';

/** One deposit of `body`, answered as raw bytes. */
async function rawDepositWith(url: string, customer: Customer, accountId: string, body: { amountMinor: number; description?: string }, key: string) {
  const response = await fetch(`${url}/api/accounts/${accountId}/deposits`, {
    method: 'POST',
    headers: { authorization: `Bearer ${customer.token}`, 'content-type': 'application/json', 'idempotency-key': key },
    body: JSON.stringify(body),
  });
  return { status: response.status, text: await response.text() };
}

/** One deposit, answered as raw bytes. */
const rawDeposit = (url: string, customer: Customer, accountId: string, amountMinor: number, key: string) =>
  rawDepositWith(url, customer, accountId, { amountMinor }, key);

/** An Idempotency-Key as test-support makes them. */
type Key = ReturnType<typeof newKey>;

describe('idempotency of money sends on PostgreSQL', () => {
  let setup: BankOnPostgres;
  let url: string;
  let api: ApiProcess;
  let b: Bank;
  let ada: Customer;
  let grace: Customer;

  beforeAll(async () => {
    // Lock waits long enough for a test to act while a send queues behind its lock.
    // One permit per account: a deposit sent while another holds it waits in the bulkhead, its key not yet claimed.
    setup = await bankOnPostgres({ env: { VALIDATE_RESPONSES: '1', ACCOUNT_LOCK_WAIT_MS: '5000', ACCOUNT_SENDS_AT_ONCE: '1' } });
    ({ url, api, bank: b } = setup);
    [ada, grace] = await Promise.all([b.signUp(), b.signUp()]);
  });
  afterAll(() => setup?.stop());

  it('moves money once for one key sent 20 times at once; every answer is the stored one, byte for byte, or 409 IN_FLIGHT', async () => {
    const key = newKey();
    const answers = await Promise.all(Array.from({ length: 20 }, () => rawDeposit(api.url, ada, ada.accountId, 700, key)));
    const replay = await rawDeposit(api.url, ada, ada.accountId, 700, key);
    expect(replay.status).toBe(201);
    for (const answer of answers) {
      if (answer.status === 201) expect(answer.text).toBe(replay.text);
      else expect([answer.status, JSON.parse(answer.text).errorCode]).toEqual([409, 'IDEMPOTENCY_IN_FLIGHT']);
    }
    expect(answers.filter((a) => a.status === 201).length).toBeGreaterThanOrEqual(1);
    expect((await keyState(url, key)).ledger).toEqual([{ account_id: ada.accountId, amount_minor: '700' }]);
  });

  it("answers a deposit and a withdrawal with their ledger row, createdAt the database's, and replays the same bytes", async () => {
    // Direct statements (adr/0021) read the row's int8 as text and its created_at as the adapter's string: the answer must still be the row's view.
    const note = 'Ünïcødé "quoted" \\ and € — 🌊';
    const key = newKey();
    const first = await rawDepositWith(api.url, ada, ada.accountId, { amountMinor: 1_234, description: note }, key);
    expect(first.status).toBe(201);
    const answer = JSON.parse(first.text);
    const [row] = await query<{ id: string; created_at: Date; balance_after_minor: string; description: string }>(
      url,
      'SELECT id::text, created_at, balance_after_minor::text, description FROM ledger_entries WHERE idempotency_key = $1',
      [key],
    );
    expect(answer).toEqual({
      id: row!.id,
      kind: 'deposit',
      accountId: ada.accountId,
      amountMinor: 1_234,
      balanceAfterMinor: Number(row!.balance_after_minor),
      description: row!.description,
      counterparty: null,
      counterpartyName: null,
      idempotencyKey: key,
      transferId: null,
      createdAt: row!.created_at.toISOString(),
    });
    expect(row!.description).toBe(note);
    expect((await rawDepositWith(api.url, ada, ada.accountId, { amountMinor: 1_234, description: note }, key)).text).toBe(first.text);

    const withdrawKey = newKey();
    const withdrawal = await b.withdraw(ada, ada.accountId, 234, undefined, withdrawKey);
    expect(withdrawal.status).toBe(201);
    const [out] = await query<{ id: string; created_at: Date }>(url, 'SELECT id::text, created_at FROM ledger_entries WHERE idempotency_key = $1', [withdrawKey]);
    expect(withdrawal.body).toMatchObject({ id: out!.id, kind: 'withdrawal', amountMinor: -234, createdAt: out!.created_at.toISOString() });
  });

  it('replays a transfer with its first status and bytes, and moves nothing more', async () => {
    await b.deposit(ada, ada.accountId, 1_000);
    const key = newKey();
    const payment = { fromAccountId: ada.accountId, toHandle: grace.handle, amountMinor: 250 };
    const body = { ...payment, authorizationId: await b.authorize(ada, { operation: 'createInternalTransfer', ...payment }) };
    const send = () =>
      fetch(`${api.url}/api/transfers/internal`, {
        method: 'POST',
        headers: { authorization: `Bearer ${ada.token}`, 'content-type': 'application/json', 'idempotency-key': key },
        body: JSON.stringify(body),
      }).then(async (r) => [r.status, await r.text()]);
    const first = await send();
    expect(await send()).toEqual(first);
    expect(await send()).toEqual(first);
    expect((await keyState(url, key)).ledger).toHaveLength(1);
  });

  it('answers 422 IDEMPOTENCY_KEY_REUSED for another payload or another operation under the same key', async () => {
    const key = newKey();
    expect((await b.deposit(ada, ada.accountId, 100, key)).status).toBe(201);
    expect(outcome(await b.deposit(ada, ada.accountId, 101, key))).toEqual([422, 'IDEMPOTENCY_KEY_REUSED']);
    expect(outcome(await b.transfer(ada, { fromAccountId: ada.accountId, toHandle: grace.handle, amountMinor: 100 }, key))).toEqual([422, 'IDEMPOTENCY_KEY_REUSED']);
  });

  it('scopes keys to their customer', async () => {
    const key = newKey();
    expect((await b.deposit(ada, ada.accountId, 100, key)).status).toBe(201);
    expect((await b.deposit(grace, grace.accountId, 100, key)).status).toBe(201);
    expect((await keyState(url, key)).ledger).toHaveLength(2);
  });

  /** Leaves a claim as a request whose release failed would: Processing, owned by nobody alive. */
  async function strandedClaim(customer: Customer, key: string, accountId: string, amountMinor: number, ageSeconds: number) {
    const requestHash = hashRequest('deposit', { accountId }, { amountMinor });
    await query(url, `INSERT INTO idempotency_records (id, user_id, key, operation_id, request_hash, status, owner_token, claimed_at)
      VALUES (gen_random_uuid(), $1, $2, 'deposit', $3, 'Processing', gen_random_uuid(), now() - $4 * interval '1 second')`, [customer.userId, key, requestHash, ageSeconds]);
  }

  it('answers 409 IN_FLIGHT while a claim is Processing and younger than stale-after', async () => {
    const key = newKey();
    await strandedClaim(ada, key, ada.accountId, 400, 5);
    expect(outcome(await b.deposit(ada, ada.accountId, 400, key))).toEqual([409, 'IDEMPOTENCY_IN_FLIGHT']);
    expect((await keyState(url, key)).ledger).toEqual([]);
  });

  it('takes over a stale claim that moved no money, and runs the send', async () => {
    const key = newKey();
    await strandedClaim(ada, key, ada.accountId, 400, 121);
    const [before] = (await keyState(url, key)).records;
    const takenOver = async () => sumOf(await scrapeMetrics(api.metricsUrl), 'tidewater_idempotency_outcomes_total', { outcome: 'stale_taken_over' });
    const takenBefore = await takenOver();
    const reply = await b.deposit(ada, ada.accountId, 400, key);
    expect(reply.status).toBe(201);
    const { ledger, records } = await keyState(url, key);
    expect(ledger).toHaveLength(1);
    // The key's one record, taken over by the send's own statement (adr/0076) and landed under it.
    expect(records).toHaveLength(1);
    expect(records[0]).toMatchObject({ status: 'Executed' });
    expect(records[0]!.owner_token).not.toBe(before!.owner_token);
    expect(await takenOver()).toBe(takenBefore + 1);
  });

  it('answers 409 RESULT_UNKNOWN with applied: true for a stale claim whose money landed (its answer was lost)', async () => {
    const key = newKey();
    expect((await b.deposit(ada, ada.accountId, 300, key)).status).toBe(201);
    // As if storing the answer had failed: the money landed, the record never became Executed.
    const forget = (ageSeconds: number) =>
      query(url, `UPDATE idempotency_records SET status = 'Processing', response_status = NULL, response_body = NULL, completed_at = NULL,
        claimed_at = now() - $2 * interval '1 second' WHERE key = $1`, [key, ageSeconds]);
    await forget(5);
    expect(outcome(await b.deposit(ada, ada.accountId, 300, key))).toEqual([409, 'IDEMPOTENCY_IN_FLIGHT']);
    await forget(121);
    const reply = await b.deposit(ada, ada.accountId, 300, key);
    expect(outcome(reply)).toEqual([409, 'IDEMPOTENCY_RESULT_UNKNOWN']);
    expect(reply.body.applied).toBe(true);
    expect((await keyState(url, key)).ledger).toHaveLength(1);
  });

  /** What the key's read says of ada's `key`. */
  const keyRead = async (key: string) => (await call(api.url, 'GET', `/api/idempotency-keys/${key}`, { token: ada.token })).body.state;

  /**
   * Sends `send` while another deposit holds ada's account's one permit: `send` waits in the
   * bulkhead holding no claim (adr/0076), its key held by this process alone. `meanwhile` runs
   * then; the account is let go after it.
   */
  async function waitingForAPermit<T>(key: Key, send: () => Promise<T>, meanwhile: () => Promise<unknown>): Promise<T> {
    return holdingAccount(url, ada.accountId, async (inside) => {
      const ahead = b.deposit(ada, ada.accountId, 1, newKey());
      await untilSomeoneWaitsForALock(url);
      const pending = send();
      while ((await keyRead(key)) !== 'inFlight') await sleep(20);
      expect((await keyState(url, key)).records).toEqual([]);
      await meanwhile();
      await inside.query('ROLLBACK');
      expect((await ahead).status).toBe(201);
      return pending;
    });
  }

  // Another process does not see this one's keys on their way: a duplicate sent to another worker
  // may claim the key while the first waits. The first's statement then finds that claim, and
  // answers it: it never moves the key's money a second time.
  it("answers a deposit that waited for a permit with the answer its key landed meanwhile elsewhere, byte for byte, and moves nothing itself", async () => {
    const landedElsewhere = await rawDeposit(api.url, ada, ada.accountId, 600, newKey());
    const key = newKey();
    const reply = await waitingForAPermit(key, () => rawDeposit(api.url, ada, ada.accountId, 600, key), () =>
      query(url, `INSERT INTO idempotency_records (id, user_id, key, operation_id, request_hash, status, owner_token, landed_at, response_status, response_body, completed_at)
        VALUES (gen_random_uuid(), $1, $2, 'deposit', $3, 'Executed', gen_random_uuid(), now(), 201, $4::jsonb, now())`,
        [ada.userId, key, hashRequest('deposit', { accountId: ada.accountId }, { amountMinor: 600 }), landedElsewhere.text]));
    expect(reply).toEqual(landedElsewhere);
    expect((await keyState(url, key)).ledger).toEqual([]);
  });

  it('answers a deposit that waited for a permit 409 IN_FLIGHT when another process claimed its key meanwhile; the key then lands once', async () => {
    const key = newKey();
    const reply = await waitingForAPermit(key, () => b.deposit(ada, ada.accountId, 650, key), () => strandedClaim(ada, key, ada.accountId, 650, 0));
    expect(outcome(reply)).toEqual([409, 'IDEMPOTENCY_IN_FLIGHT']);
    expect((await keyState(url, key)).ledger).toEqual([]);
    // The other request's claim, as a failed release leaves it: taken over once stale.
    await query(url, "UPDATE idempotency_records SET claimed_at = now() - interval '121 seconds' WHERE key = $1", [key]);
    expect(outcome(await b.deposit(ada, ada.accountId, 650, key))).toEqual([201, null]);
    expect((await keyState(url, key)).ledger).toEqual([{ account_id: ada.accountId, amount_minor: '650' }]);
  });
});
