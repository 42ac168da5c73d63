/**
 * The money sends, account changes and listing, end to end over HTTP on both databases
 * (PGlite and PostgreSQL), every answer checked against the spec by the server itself
 * (VALIDATE_RESPONSES=1). After the suite, `npm run audit:verify` passes on what it left.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startApi, type ApiProcess } from '@tidewater/test-support/apiProcess';
import { startPrimary, type PgCluster } from '@tidewater/test-support/pgCluster';
import { bank, newKey, outcome, type Bank, type Customer } from '@tidewater/test-support/bank';
import { runAuditVerify } from '@tidewater/test-support/bankDatabase';

interface Backend {
  name: string;
  start(): Promise<{ env: Record<string, string>; cleanup(): Promise<void> }>;
}

const backends: Backend[] = [
  {
    name: 'PGlite',
    async start() {
      const dir = mkdtempSync(join(tmpdir(), 'tidewater-money-'));
      return { env: { DATA_DIR: dir, DATABASE_URL: '' }, cleanup: async () => rmSync(dir, { recursive: true, force: true }) };
    },
  },
  {
    name: 'PostgreSQL',
    async start() {
      const cluster: PgCluster = await startPrimary();
      return { env: { DATABASE_URL: cluster.urlFor('tidewater') }, cleanup: () => cluster.destroy() };
    },
  },
];

/** A valid German IBAN with spaces, and the same with one digit wrong. */
const iban = 'DE89 3704 0044 0532 0130 00';
const badIban = 'DE89 3704 0044 0532 0130 01';

describe.each(backends)('money sends on $name', (backend) => {
  let api: ApiProcess;
  let env: Record<string, string>;
  let cleanup: () => Promise<void>;
  let b: Bank;
  let ada: Customer;
  let grace: Customer;

  beforeAll(async () => {
    const started = await backend.start();
    env = started.env;
    cleanup = started.cleanup;
    // A small daily ceiling (100.00) so the test can reach it.
    api = await startApi({ ...env, VALIDATE_RESPONSES: '1', DAILY_SEND_LIMIT_MINOR: '10000' });
    b = bank(api.url);
    [ada, grace] = await Promise.all([b.signUp(), b.signUp()]);
  });
  afterAll(async () => {
    await api?.stop();
    await cleanup?.();
  });

  it('deposits and withdraws in integer minor units and lists movements newest first, a page at a time', async () => {
    const deposit = await b.deposit(ada, ada.accountId, 12_345, newKey(), 'Salary');
    expect(deposit.status).toBe(201);
    expect(deposit.body).toMatchObject({ accountId: ada.accountId, kind: 'deposit', amountMinor: 12_345, balanceAfterMinor: 12_345, description: 'Salary', transferId: null });
    const withdrawal = await b.withdraw(ada, ada.accountId, 345);
    expect(withdrawal.body).toMatchObject({ kind: 'withdrawal', amountMinor: -345, balanceAfterMinor: 12_000 });
    await b.deposit(ada, ada.accountId, 1);
    expect(await b.balance(ada, ada.accountId)).toBe(12_001);

    const first = await b.transactions(ada, { accountId: ada.accountId, limit: 2 });
    expect(first.status).toBe(200);
    expect(first.body.items.map((t: { amountMinor: number }) => t.amountMinor)).toEqual([1, -345]);
    const second = await b.transactions(ada, { accountId: ada.accountId, limit: 2, cursor: first.body.nextCursor });
    expect(second.body.items.map((t: { amountMinor: number }) => t.amountMinor)).toEqual([12_345]);
    expect(second.body.nextCursor).toBeNull();
  });

  it('transfers between own accounts and to another customer by handle, into their primary account', async () => {
    const savings = await b.openAccount(ada, 'Savings');
    const own = await b.transfer(ada, { fromAccountId: ada.accountId, toAccountId: savings, amountMinor: 2_000, description: 'Put aside' });
    expect(own.status).toBe(201);
    expect(own.body).toMatchObject({ fromAccountId: ada.accountId, toAccountId: savings, toHandle: null, iban: null, amountMinor: 2_000 });
    expect(own.body.movements.map((m: { kind: string; amountMinor: number }) => [m.kind, m.amountMinor])).toEqual([['transfer_out', -2_000], ['transfer_in', 2_000]]);
    expect(new Set(own.body.movements.map((m: { transferId: string }) => m.transferId))).toEqual(new Set([own.body.id]));

    const graceBefore = await b.balance(grace, grace.accountId);
    const key = newKey();
    const toGrace = await b.transfer(ada, { fromAccountId: savings, toHandle: grace.handle, amountMinor: 750 }, key);
    expect(toGrace.status).toBe(201);
    expect(toGrace.body).toMatchObject({ toAccountId: null, toHandle: grace.handle, amountMinor: 750 });
    expect(toGrace.body.movements).toHaveLength(1);
    expect(await b.balance(grace, grace.accountId)).toBe(graceBefore + 750);
    // The payee sees the money and the sender's handle, never the sender's key.
    const graceRows = await b.transactions(grace, { accountId: grace.accountId });
    expect(graceRows.body.items[0]).toMatchObject({ kind: 'transfer_in', amountMinor: 750, counterparty: `@${ada.handle}`, idempotencyKey: null });
    expect((await b.transactions(grace, { accountId: grace.accountId, idempotencyKey: key })).body.items).toEqual([]);
    // The sender's listed movement is the view its stored answer holds (one view of a movement: `wire_transaction`).
    expect((await b.transactions(ada, { accountId: savings, idempotencyKey: key })).body.items).toEqual(toGrace.body.movements);
  });

  it('sends to a valid IBAN, within the daily ceiling across all accounts', async () => {
    const carol = await b.signUp();
    const second = await b.openAccount(carol, 'Second');
    await b.deposit(carol, carol.accountId, 20_000);
    await b.deposit(carol, second, 20_000);
    const sent = await b.external(carol, { fromAccountId: carol.accountId, iban, beneficiaryName: ' Grace Hopper ', amountMinor: 6_000 });
    expect(sent.status).toBe(201);
    expect(sent.body).toMatchObject({ iban: 'DE89370400440532013000', beneficiaryName: 'Grace Hopper', toAccountId: null, amountMinor: 6_000 });
    expect(sent.body.movements[0]).toMatchObject({ kind: 'external_out', amountMinor: -6_000, counterparty: 'Grace Hopper (DE89370400440532013000)' });
    const over = await b.external(carol, { fromAccountId: second, iban, beneficiaryName: 'Grace', amountMinor: 4_001 });
    expect(outcome(over)).toEqual([422, 'DAILY_LIMIT_EXCEEDED']);
    const upTo = await b.external(carol, { fromAccountId: second, iban, beneficiaryName: 'Grace', amountMinor: 4_000 });
    expect(upTo.status).toBe(201);
  });

  it('answers every refusal with its catalogued problem, and moves nothing', async () => {
    const dan = await b.signUp();
    const spare = await b.openAccount(dan, 'Spare');
    expect((await b.close(dan, spare)).status).toBe(200);
    await b.deposit(dan, dan.accountId, 20_000);
    const auth = await b.authorize(dan, { operation: 'withdraw', fromAccountId: dan.accountId, amountMinor: 10_000 });
    const refusals: Array<[string, () => Promise<import('@tidewater/test-support/httpClient').Reply>, [number, string]]> = [
      ["a deposit into another customer's account", () => b.deposit(dan, grace.accountId, 100), [404, 'ACCOUNT_NOT_FOUND']],
      ['a deposit into a closed account', () => b.deposit(dan, spare, 100), [404, 'ACCOUNT_NOT_FOUND']],
      ['a withdrawal beyond the balance', () => b.withdraw(dan, dan.accountId, 20_001), [422, 'INSUFFICIENT_FUNDS']],
      ['a transfer beyond the balance', () => b.transfer(dan, { fromAccountId: dan.accountId, toHandle: grace.handle, amountMinor: 50_000 }), [422, 'INSUFFICIENT_FUNDS']],
      ['a transfer into the same account', () => b.transfer(dan, { fromAccountId: dan.accountId, toAccountId: dan.accountId, amountMinor: 1 }), [422, 'SAME_ACCOUNT']],
      ['a transfer to his own handle from his primary', () => b.transfer(dan, { fromAccountId: dan.accountId, toHandle: dan.handle, amountMinor: 1 }), [422, 'SAME_ACCOUNT']],
      ['a transfer into a closed own account', () => b.transfer(dan, { fromAccountId: dan.accountId, toAccountId: spare, amountMinor: 1 }), [404, 'ACCOUNT_NOT_FOUND']],
      ['a transfer from another customer\'s account', () => b.transfer(dan, { fromAccountId: grace.accountId, toAccountId: dan.accountId, amountMinor: 1 }), [404, 'ACCOUNT_NOT_FOUND']],
      ['a transfer to a handle nobody has', () => b.transfer(dan, { fromAccountId: dan.accountId, toHandle: 'nobody_here', amountMinor: 1 }), [404, 'PAYEE_NOT_FOUND']],
      ['an IBAN whose checksum is wrong', () => b.external(dan, { fromAccountId: dan.accountId, iban: badIban, beneficiaryName: 'X', amountMinor: 1, authorizationId: newKey() }), [422, 'INVALID_IBAN']],
      ['an external transfer beyond the ceiling', () => b.external(dan, { fromAccountId: dan.accountId, iban, beneficiaryName: 'X', amountMinor: 10_001 }), [422, 'DAILY_LIMIT_EXCEEDED']],
      ["another customer's movements", () => b.transactions(dan, { accountId: grace.accountId }), [404, 'ACCOUNT_NOT_FOUND']],
      ['a cursor this API did not give out', () => b.transactions(dan, { accountId: dan.accountId, cursor: 'bm90LWEtY3Vyc29y' }), [400, 'VALIDATION_FAILED']],
    ];
    for (const [name, send, want] of refusals) expect(outcome(await send()), name).toEqual(want);
    expect(await b.balance(dan, dan.accountId)).toBe(20_000);
    // None of them spent the authorisation they were given (each approves its own payment only), nor this one.
    expect((await b.withdraw(dan, dan.accountId, 10_000, auth)).status).toBe(201);
  });

  it('tells a payee with no open account left from one who never existed', async () => {
    const erin = await b.signUp();
    await b.deposit(ada, ada.accountId, 100);
    expect((await b.close(erin, erin.accountId)).body).toMatchObject({ status: 'closed', isPrimary: false });
    const reply = await b.transfer(ada, { fromAccountId: ada.accountId, toHandle: erin.handle, amountMinor: 100 });
    expect(outcome(reply)).toEqual([422, 'PAYEE_HAS_NO_OPEN_ACCOUNT']);
  });

  it('renames, closes and chooses the primary account by the rules', async () => {
    const fay = await b.signUp();
    const holidays = await b.openAccount(fay, 'Holidays');
    const renamed = await b.rename(fay, holidays, '  Rainy day ');
    expect(renamed.body).toMatchObject({ id: holidays, name: 'Rainy day', isPrimary: false });
    expect(outcome(await b.rename(grace, holidays, 'Mine now'))).toEqual([404, 'ACCOUNT_NOT_FOUND']);

    await b.deposit(fay, holidays, 500);
    expect(outcome(await b.close(fay, holidays))).toEqual([422, 'ACCOUNT_NOT_EMPTY']);
    expect(outcome(await b.close(fay, fay.accountId))).toEqual([422, 'ACCOUNT_IS_PRIMARY']);
    expect(outcome(await b.close(grace, holidays))).toEqual([404, 'ACCOUNT_NOT_FOUND']);

    const primary = await b.setPrimary(fay, holidays);
    expect(primary.body).toMatchObject({ id: holidays, isPrimary: true, status: 'open' });
    expect((await b.account(fay, fay.accountId)).body.isPrimary).toBe(false);
    const closed = await b.close(fay, fay.accountId);
    expect(closed.body).toMatchObject({ status: 'closed', isPrimary: false });
    expect(closed.body.closedAt).toEqual(expect.any(String));
    expect(outcome(await b.close(fay, fay.accountId))).toEqual([422, 'ACCOUNT_CLOSED']);
    expect(outcome(await b.setPrimary(fay, fay.accountId))).toEqual([422, 'ACCOUNT_CLOSED']);
    expect(outcome(await b.setPrimary(grace, holidays))).toEqual([404, 'ACCOUNT_NOT_FOUND']);
    // A closed account keeps its history and can still be renamed.
    expect((await b.rename(fay, fay.accountId, 'Old everyday')).status).toBe(200);
    expect((await b.transactions(fay, { accountId: fay.accountId })).status).toBe(200);
  });

  it('finds a send by its key on each account it wrote, and nothing for a key that never landed', async () => {
    const savings = await b.openAccount(ada, 'By key');
    await b.deposit(ada, ada.accountId, 300);
    const key = newKey();
    const transfer = await b.transfer(ada, { fromAccountId: ada.accountId, toAccountId: savings, amountMinor: 300 }, key);
    const fromSide = await b.transactions(ada, { accountId: ada.accountId, idempotencyKey: key });
    const toSide = await b.transactions(ada, { accountId: savings, idempotencyKey: key });
    // The listing adds the other customer's name (null between own accounts; adr/0050) to what the send answered.
    expect(fromSide.body.items).toEqual([{ ...transfer.body.movements[0], counterpartyName: null }]);
    expect(toSide.body.items).toEqual([{ ...transfer.body.movements[1], counterpartyName: null }]);
    // One view of a movement (`wire_transaction`): the listing is the stored answer's movement, key for key in its order.
    expect(JSON.stringify(fromSide.body.items)).toBe(JSON.stringify([transfer.body.movements[0]]));
    expect((await b.transactions(ada, { accountId: ada.accountId, idempotencyKey: newKey() })).body).toEqual({ items: [], nextCursor: null });
  });

  it('leaves an audit trail that `npm run audit:verify` accepts', async () => {
    // PGlite belongs to one process: the API lets go of it first.
    if (env.DATA_DIR) await api.stop();
    const verified = await runAuditVerify(env);
    expect(verified.stderr).toBe('');
    expect(verified.code).toBe(0);
    expect(verified.stdout).toMatch(/intact: \d+ account\(s\), \d+ audit row\(s\)/);
  });
});
