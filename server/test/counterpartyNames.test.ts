/**
 * Names, not handles (adr/0050), on PostgreSQL: the movements of a transfer by handle name
 * the other customer by display name on both sides when they are listed (read then, so a
 * renamed customer is shown by their name now); other movements carry a null name. A send's
 * own answer carries the same field, the name as it was when the send landed, so a deposit's
 * 201 is the movement its listing shows.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bankOnPostgres, type BankOnPostgres } from '@tidewater/test-support/bankOnPostgres';
import type { Customer } from '@tidewater/test-support/bank';
import { query } from '@tidewater/test-support/bankDatabase';

describe('counterparty names in the movements', () => {
  let setup: BankOnPostgres;
  let ada: Customer;
  let grace: Customer;
  let deposited: { body: Record<string, unknown> };
  let sent: { body: { movements: Array<Record<string, unknown>> } };

  beforeAll(async () => {
    setup = await bankOnPostgres();
    ada = await setup.bank.signUp();
    grace = await setup.bank.signUp();
    const deposit = await setup.bank.deposit(ada, ada.accountId, 5_000);
    expect(deposit.status).toBe(201);
    deposited = deposit;
    const transfer = await setup.bank.transfer(ada, { fromAccountId: ada.accountId, toHandle: grace.handle, amountMinor: 1_250 });
    expect(transfer.status).toBe(201);
    sent = transfer;
  });
  afterAll(() => setup?.stop());

  const namesOf = async (customer: Customer) => {
    const listed = await setup.bank.transactions(customer, { accountId: customer.accountId });
    expect(listed.status).toBe(200);
    return (listed.body.items as Array<{ kind: string; counterparty: string | null; counterpartyName: string | null }>).map((item) => [item.kind, item.counterparty, item.counterpartyName]);
  };

  it("names the payee in the payer's movements and the payer in the payee's", async () => {
    const [adaName, graceName] = await Promise.all([displayName(ada), displayName(grace)]);
    expect(adaName).not.toEqual(graceName);
    expect(await namesOf(ada)).toEqual([
      ['transfer_out', `@${grace.handle}`, graceName],
      ['deposit', null, null],
    ]);
    expect(await namesOf(grace)).toEqual([['transfer_in', `@${ada.handle}`, adaName]]);
  });

  it("answers a send with the movement its listing shows, the counterparty's name included", async () => {
    const listed = await setup.bank.transactions(ada, { accountId: ada.accountId });
    const [transferOut, deposit] = listed.body.items as Array<Record<string, unknown>>;
    expect(deposited.body).toEqual(deposit);
    expect(deposited.body).toHaveProperty('counterpartyName', null);
    expect(sent.body.movements).toEqual([transferOut]);
    expect(sent.body.movements[0]).toHaveProperty('counterpartyName', await displayName(grace));
  });

  it('reads the name when listing: a customer who changes their name is shown by the new one', async () => {
    await query(setup.url, 'UPDATE users SET display_name = $1 WHERE id = $2', ['Grace B. Hopper', grace.userId]);
    expect((await namesOf(ada))[0]).toEqual(['transfer_out', `@${grace.handle}`, 'Grace B. Hopper']);
  });

  async function displayName(customer: Customer): Promise<string> {
    const [row] = await query<{ display_name: string }>(setup.url, 'SELECT display_name FROM users WHERE id = $1', [customer.userId]);
    return row!.display_name;
  }
});
