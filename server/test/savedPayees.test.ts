/**
 * Saved payees (issue 52 item 6, adr/0072), on PostgreSQL over HTTP: a payee paid once by
 * handle or by IBAN is listed next time, the most recently paid first, read from the
 * customer's own movements; a send that was refused saves nobody, a transfer between the
 * customer's own accounts is no payee, and one customer never sees another's.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bankOnPostgres, type BankOnPostgres } from '@tidewater/test-support/bankOnPostgres';
import { query } from '@tidewater/test-support/bankDatabase';
import type { Customer } from '@tidewater/test-support/bank';
import { call } from '@tidewater/test-support/httpClient';

const IBAN = 'DE89370400440532013000';

describe('saved payees on PostgreSQL', () => {
  let setup: BankOnPostgres;
  let payer: Customer;
  let grace: Customer;
  let broke: Customer;
  let stranger: Customer;
  const saved = (customer: Customer) => call(setup.api.url, 'GET', '/api/saved-payees', { token: customer.token });

  beforeAll(async () => {
    setup = await bankOnPostgres({ env: { VALIDATE_RESPONSES: '1' } });
    [payer, grace, broke, stranger] = [await setup.bank.signUp(), await setup.bank.signUp(), await setup.bank.signUp(), await setup.bank.signUp()];
    expect((await setup.bank.deposit(payer, payer.accountId, 10_000)).status).toBe(201);
  }, 120_000);
  afterAll(() => setup?.stop());

  it('lists nobody before the first payment', async () => {
    expect((await saved(payer)).body).toEqual({ items: [] });
  });

  it('lists a payee paid by handle and one paid by IBAN, the most recent first, and nobody a send did not reach', async () => {
    expect((await setup.bank.transfer(payer, { fromAccountId: payer.accountId, toHandle: grace.handle, amountMinor: 1_000 })).status).toBe(201);
    expect((await setup.bank.transfer(payer, { fromAccountId: payer.accountId, toHandle: grace.handle, amountMinor: 500 })).status).toBe(201);
    expect((await setup.bank.external(payer, { fromAccountId: payer.accountId, iban: IBAN, beneficiaryName: 'Ada Lovelace', amountMinor: 700 })).status).toBe(201);
    // Refused: more than the balance. Nothing left, so nobody is saved.
    expect((await setup.bank.transfer(payer, { fromAccountId: payer.accountId, toHandle: broke.handle, amountMinor: 1_000_000 })).status).toBe(422);
    // Between the payer's own accounts: no payee.
    const savings = await setup.bank.openAccount(payer);
    expect((await setup.bank.transfer(payer, { fromAccountId: payer.accountId, toAccountId: savings, amountMinor: 100 })).status).toBe(201);

    const [graceName] = await query<{ name: string }>(setup.url, 'SELECT display_name AS name FROM users WHERE id = $1', [grace.userId]);
    const list = await saved(payer);
    expect(list.status).toBe(200);
    expect(list.body.items.map(({ lastPaidAt: _at, ...payee }: { lastPaidAt: string }) => payee)).toEqual([
      { kind: 'iban', iban: IBAN, name: 'Ada Lovelace' },
      { kind: 'handle', handle: grace.handle, name: graceName!.name },
    ]);
    // The list is the ledger's: the payer's last payment to Grace is when the list says.
    const [last] = await query<{ at: Date }>(setup.url, `SELECT max(e.created_at) AS at FROM ledger_entries e JOIN accounts a ON a.id = e.account_id
      WHERE a.user_id = $1 AND e.kind = 'transfer_out' AND e.counterparty = $2`, [payer.userId, `@${grace.handle}`]);
    expect(list.body.items[1].lastPaidAt).toBe(new Date(last!.at).toISOString());
  });

  it('never shows one customer another\'s payees', async () => {
    expect((await saved(stranger)).body).toEqual({ items: [] });
    expect((await saved(grace)).body).toEqual({ items: [] });
  });

  it('answers 401 without a token', async () => {
    expect((await call(setup.api.url, 'GET', '/api/saved-payees')).status).toBe(401);
  });
});
