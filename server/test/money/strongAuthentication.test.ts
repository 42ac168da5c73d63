/**
 * Money that leaves a customer, as an attacker holding their session tries it (adr/0045),
 * on PostgreSQL: a withdrawal, a transfer by handle and an external transfer each need a
 * step-up for exactly that payment; an authorisation moves only the payment it names (any
 * other is 403 AUTHORIZATION_MISMATCH and moves nothing, a refused send leaves it bound);
 * and one daily ceiling bounds all three together, also under 20 parallel sends. Money is
 * read from the database.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bankOnPostgres, type BankOnPostgres } from '@tidewater/test-support/bankOnPostgres';
import { newKey, outcome, type Bank, type Customer } from '@tidewater/test-support/bank';
import { call } from '@tidewater/test-support/httpClient';
import { query } from '@tidewater/test-support/bankDatabase';

const iban = 'DE89370400440532013000';
const otherIban = 'GB82WEST12345698765432';
const CEILING = 10_000;

describe('strong customer authentication and the daily ceiling on PostgreSQL', () => {
  let setup: BankOnPostgres;
  let url: string;
  let b: Bank;
  let grace: Customer;

  beforeAll(async () => {
    setup = await bankOnPostgres({ env: { VALIDATE_RESPONSES: '1', DAILY_SEND_LIMIT_MINOR: String(CEILING) } });
    ({ url, bank: b } = setup);
    grace = await b.signUp();
  });
  afterAll(() => setup?.stop());

  /** The balance as the database holds it. */
  const balance = async (accountId: string) =>
    Number((await query<{ balance: string }>(url, 'SELECT balance_minor::text AS balance FROM accounts WHERE id = $1', [accountId]))[0]!.balance);

  /** What left `customer` today, from the ledger: withdrawals, external transfers, and transfers whose other side is not theirs. */
  const leftToday = async (customer: Customer) =>
    Number((await query<{ sent: string }>(url, `
      SELECT COALESCE(-SUM(e.amount_minor), 0)::text AS sent FROM ledger_entries e JOIN accounts a ON a.id = e.account_id
      WHERE a.user_id = $1 AND e.amount_minor < 0 AND (e.kind IN ('withdrawal', 'external_out') OR (e.kind = 'transfer_out' AND NOT EXISTS (
        SELECT 1 FROM ledger_entries i JOIN accounts ia ON ia.id = i.account_id WHERE i.transfer_id = e.transfer_id AND i.kind = 'transfer_in' AND ia.user_id = $1)))`,
    [customer.userId]))[0]!.sent);

  it('refuses a transfer to another customer without a step-up, and moves nothing', async () => {
    const ada = await b.signUp();
    await b.deposit(ada, ada.accountId, 5_000);
    const bare = await call(setup.api.url, 'POST', '/api/transfers/internal', {
      token: ada.token,
      headers: { 'idempotency-key': newKey() },
      body: { fromAccountId: ada.accountId, toHandle: grace.handle, amountMinor: 5_000 },
    });
    expect(outcome(bare)).toEqual([400, 'VALIDATION_FAILED']);
    expect(await balance(ada.accountId)).toBe(5_000);
    // Between her own accounts she needs none.
    const savings = await b.openAccount(ada);
    expect((await b.transfer(ada, { fromAccountId: ada.accountId, toAccountId: savings, amountMinor: 1_000 })).status).toBe(201);
  });

  it('moves exactly the approved payment: any other account, amount, payee or operation is 403 AUTHORIZATION_MISMATCH and moves nothing', async () => {
    const ada = await b.signUp();
    const savings = await b.openAccount(ada);
    await b.deposit(ada, ada.accountId, 5_000);
    await b.deposit(ada, savings, 5_000);
    const approved = { fromAccountId: ada.accountId, amountMinor: 700, toHandle: grace.handle };
    const issued = await b.verifyPin(ada, ada.pin, { operation: 'createInternalTransfer', ...approved });
    expect(issued.status).toBe(201);
    // The step-up answers what it approved, so the customer can be shown it.
    expect(issued.body.payment).toEqual({ operation: 'createInternalTransfer', ...approved });
    const authorizationId = issued.body.authorizationId as string;
    const other = await b.signUp();
    const attempts: Array<[string, () => ReturnType<Bank['transfer']>]> = [
      ['a larger amount', () => b.transfer(ada, { ...approved, amountMinor: 4_000, authorizationId })],
      ['another payee', () => b.transfer(ada, { ...approved, toHandle: other.handle, authorizationId })],
      ['another account of hers', () => b.transfer(ada, { ...approved, fromAccountId: savings, authorizationId })],
      ['a withdrawal', () => b.withdraw(ada, ada.accountId, 700, authorizationId)],
      ['an external transfer', () => b.external(ada, { fromAccountId: ada.accountId, iban, beneficiaryName: 'Mallory', amountMinor: 700, authorizationId })],
    ];
    for (const [name, send] of attempts) expect(outcome(await send()), name).toEqual([403, 'AUTHORIZATION_MISMATCH']);
    expect([await balance(ada.accountId), await balance(savings), await balance(other.accountId)]).toEqual([5_000, 5_000, 0]);
    expect((await b.transfer(ada, { ...approved, authorizationId })).status).toBe(201);
    expect(await balance(ada.accountId)).toBe(4_300);
  });

  it('binds an external transfer to its IBAN and name, and refuses an IBAN that cannot be paid before the PIN', async () => {
    const ada = await b.signUp();
    await b.deposit(ada, ada.accountId, 5_000);
    const approved = { fromAccountId: ada.accountId, amountMinor: 900, iban: 'de89 3704 0044 0532 0130 00', beneficiaryName: ' Grace Hopper ' };
    const issued = await b.verifyPin(ada, ada.pin, { operation: 'createExternalTransfer', ...approved });
    expect(issued.body.payment).toMatchObject({ iban, beneficiaryName: 'Grace Hopper' });
    const authorizationId = issued.body.authorizationId as string;
    expect(outcome(await b.external(ada, { ...approved, iban: otherIban, authorizationId }))).toEqual([403, 'AUTHORIZATION_MISMATCH']);
    expect(outcome(await b.external(ada, { ...approved, beneficiaryName: 'Mallory', authorizationId }))).toEqual([403, 'AUTHORIZATION_MISMATCH']);
    expect(await balance(ada.accountId)).toBe(5_000);
    expect((await b.external(ada, { ...approved, iban, authorizationId })).status).toBe(201);
    const bad = await b.verifyPin(ada, '0000', { operation: 'createExternalTransfer', ...approved, iban: 'DE89370400440532013001' });
    expect(outcome(bad)).toEqual([422, 'INVALID_IBAN']);
    const [pin] = await query<{ n: number }>(url, 'SELECT pin_failed_attempts AS n FROM users WHERE id = $1', [ada.userId]);
    expect(pin!.n).toBe(0);
  });

  it('leaves a send refused for funds bound to its payment: it cannot be spent on another one', async () => {
    const ada = await b.signUp();
    const savings = await b.openAccount(ada);
    await b.deposit(ada, savings, 9_000);
    const authorizationId = await b.authorize(ada, { operation: 'withdraw', fromAccountId: ada.accountId, amountMinor: 8_000 });
    expect(outcome(await b.withdraw(ada, ada.accountId, 8_000, authorizationId))).toEqual([422, 'INSUFFICIENT_FUNDS']);
    expect(outcome(await b.external(ada, { fromAccountId: savings, iban, beneficiaryName: 'Mallory', amountMinor: 8_000, authorizationId }))).toEqual([403, 'AUTHORIZATION_MISMATCH']);
    expect(outcome(await b.withdraw(ada, savings, 8_000, authorizationId))).toEqual([403, 'AUTHORIZATION_MISMATCH']);
    expect(await balance(savings)).toBe(9_000);
  });

  it('counts withdrawals, transfers to others and external transfers against one daily ceiling; own transfers not', async () => {
    const ada = await b.signUp();
    const savings = await b.openAccount(ada);
    await b.deposit(ada, ada.accountId, 30_000);
    expect((await b.withdraw(ada, ada.accountId, 4_000)).status).toBe(201);
    expect((await b.transfer(ada, { fromAccountId: ada.accountId, toHandle: grace.handle, amountMinor: 3_000 })).status).toBe(201);
    expect((await b.transfer(ada, { fromAccountId: ada.accountId, toAccountId: savings, amountMinor: 10_000 })).status).toBe(201);
    expect(outcome(await b.external(ada, { fromAccountId: savings, iban, beneficiaryName: 'Grace', amountMinor: 3_001 }))).toEqual([422, 'DAILY_LIMIT_EXCEEDED']);
    expect(outcome(await b.withdraw(ada, savings, 3_001))).toEqual([422, 'DAILY_LIMIT_EXCEEDED']);
    expect(outcome(await b.transfer(ada, { fromAccountId: savings, toHandle: grace.handle, amountMinor: 3_001 }))).toEqual([422, 'DAILY_LIMIT_EXCEEDED']);
    expect((await b.external(ada, { fromAccountId: savings, iban, beneficiaryName: 'Grace', amountMinor: 3_000 })).status).toBe(201);
    expect(await leftToday(ada)).toBe(CEILING);
  });

  it('lets 20 parallel sends that together exceed the ceiling move at most the ceiling', async () => {
    const ada = await b.signUp();
    const savings = await b.openAccount(ada);
    await b.deposit(ada, ada.accountId, 20_000);
    await b.deposit(ada, savings, 20_000);
    const amountMinor = 1_500;
    const sends = Array.from({ length: 20 }, (_, i) => {
      const fromAccountId = i % 2 === 0 ? ada.accountId : savings;
      if (i % 3 === 0) return { kind: 'withdraw' as const, fromAccountId };
      if (i % 3 === 1) return { kind: 'handle' as const, fromAccountId };
      return { kind: 'external' as const, fromAccountId };
    });
    // Each approved beforehand (the PIN checks take their turns at the hashing queue), then all sent at once.
    const approvals: string[] = [];
    for (const send of sends) {
      approvals.push(await b.authorize(ada, send.kind === 'withdraw'
        ? { operation: 'withdraw', fromAccountId: send.fromAccountId, amountMinor }
        : send.kind === 'handle'
          ? { operation: 'createInternalTransfer', fromAccountId: send.fromAccountId, amountMinor, toHandle: grace.handle }
          : { operation: 'createExternalTransfer', fromAccountId: send.fromAccountId, amountMinor, iban, beneficiaryName: 'Grace' }));
    }
    const replies = await Promise.all(sends.map((send, i) => {
      const authorizationId = approvals[i]!;
      if (send.kind === 'withdraw') return b.withdraw(ada, send.fromAccountId, amountMinor, authorizationId);
      if (send.kind === 'handle') return b.transfer(ada, { fromAccountId: send.fromAccountId, toHandle: grace.handle, amountMinor, authorizationId });
      return b.external(ada, { fromAccountId: send.fromAccountId, iban, beneficiaryName: 'Grace', amountMinor, authorizationId });
    }));
    const moved = replies.filter((reply) => reply.status === 201).length;
    const statuses = new Set(replies.map((reply) => `${reply.status} ${reply.body?.errorCode ?? ''}`.trim()));
    console.log(`20 parallel sends of ${amountMinor} against a ceiling of ${CEILING}: ${moved} moved; answers ${[...statuses].join(', ')}`);
    expect([...statuses].every((s) => ['201', '422 DAILY_LIMIT_EXCEEDED', '503 SERVICE_UNAVAILABLE'].includes(s)), [...statuses].join(', ')).toBe(true);
    expect(moved).toBeGreaterThan(0);
    expect(moved * amountMinor).toBeLessThanOrEqual(CEILING);
    expect(await leftToday(ada)).toBe(moved * amountMinor);
    expect((await balance(ada.accountId)) + (await balance(savings))).toBe(40_000 - moved * amountMinor);
  }, 60_000);
});
