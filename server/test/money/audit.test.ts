/**
 * The audit chain on its own PostgreSQL cluster: every send writes its audit rows in the
 * money's transaction, `npm run audit:verify` passes on an honest database and fails,
 * naming the broken row, after a row is changed, a movement's amount is changed, or an
 * audit row is removed.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bankOnPostgres, type BankOnPostgres } from '@tidewater/test-support/bankOnPostgres';
import type { Bank, Customer } from '@tidewater/test-support/bank';
import { query, runAuditVerify } from '@tidewater/test-support/bankDatabase';

describe('the audit chain and `npm run audit:verify`', () => {
  let setup: BankOnPostgres;
  let url: string;
  let b: Bank;
  let ada: Customer;
  let savings: string;

  beforeAll(async () => {
    setup = await bankOnPostgres();
    ({ url, bank: b } = setup);
    const grace = await b.signUp();
    ada = await b.signUp();
    savings = await b.openAccount(ada, 'Savings');
    const spare = await b.openAccount(ada, 'Spare');
    await b.deposit(ada, ada.accountId, 10_000);
    await b.transfer(ada, { fromAccountId: ada.accountId, toAccountId: savings, amountMinor: 2_500 });
    await b.transfer(ada, { fromAccountId: savings, toHandle: grace.handle, amountMinor: 500 });
    await b.withdraw(ada, ada.accountId, 1_000);
    await b.close(ada, spare);
  });
  afterAll(() => setup?.stop());

  it('writes one chained audit row per movement and per closure, stamped with the request', async () => {
    const rows = await query<{ action: string; seq: number; request_id: string | null; ledger_entry_id: string | null }>(
      url,
      `SELECT r.action, r.seq, r.request_id, r.ledger_entry_id FROM audit_rows r JOIN accounts a ON a.id = r.account_id
       WHERE a.user_id = $1 ORDER BY r.account_id, r.seq`,
      [ada.userId],
    );
    expect(rows.map((r) => r.action).sort()).toEqual(['close', 'deposit', 'transfer_in', 'transfer_out', 'transfer_out', 'withdrawal']);
    expect(rows.every((r) => r.request_id !== null)).toBe(true);
    expect(rows.filter((r) => r.ledger_entry_id === null).map((r) => r.action)).toEqual(['close']);
  });

  it('passes on the honest database', async () => {
    const verified = await runAuditVerify({ DATABASE_URL: url });
    expect([verified.code, verified.stderr]).toEqual([0, '']);
    expect(verified.stdout).toMatch(/^audit:verify: intact: 4 account\(s\), 7 audit row\(s\)/);
  });

  /** Runs `tamper`, expects audit:verify to fail naming `want`, then runs `restore` and expects a pass. */
  async function expectCaught(tamper: string, restore: string, values: unknown[], want: RegExp) {
    await query(url, tamper, values);
    const broken = await runAuditVerify({ DATABASE_URL: url });
    await query(url, restore, values);
    expect(broken.code).toBe(1);
    expect(broken.stderr).toMatch(want);
    expect((await runAuditVerify({ DATABASE_URL: url })).code).toBe(0);
  }

  it('fails naming the row whose payload was changed', async () => {
    const [row] = await query<{ id: string }>(url, "SELECT id::text FROM audit_rows WHERE account_id = $1 AND action = 'deposit'", [ada.accountId]);
    await expectCaught(
      `UPDATE audit_rows SET payload = jsonb_set(payload, '{amountMinor}', '"100000"') WHERE id = $1`,
      `UPDATE audit_rows SET payload = jsonb_set(payload, '{amountMinor}', '"10000"') WHERE id = $1`,
      [row!.id],
      new RegExp(`BROKEN audit row ${row!.id} \\(account ${ada.accountId}, seq 1\\): hash does not match its content`),
    );
  });

  it('fails naming the movement whose amount was changed behind the chain', async () => {
    const [entry] = await query<{ id: string }>(url, "SELECT id::text FROM ledger_entries WHERE account_id = $1 AND kind = 'withdrawal'", [ada.accountId]);
    await expectCaught(
      'UPDATE ledger_entries SET amount_minor = -1 WHERE id = $1',
      'UPDATE ledger_entries SET amount_minor = -1000 WHERE id = $1',
      [entry!.id],
      new RegExp(`differs from ledger row ${entry!.id} in amount`),
    );
  });

  it('fails when an audit row is removed: the chain has a gap and a movement has no audit row', async () => {
    const [row] = await query<Record<string, unknown>>(url, "SELECT * FROM audit_rows WHERE account_id = $1 AND action = 'transfer_in'", [savings]);
    await query(url, 'DELETE FROM audit_rows WHERE id = $1', [row!.id]);
    const broken = await runAuditVerify({ DATABASE_URL: url });
    await query(
      url,
      `INSERT INTO audit_rows (id, account_id, seq, action, payload, ledger_entry_id, trace_id, request_id, prev_hash, hash, created_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11)`,
      [row!.id, row!.account_id, row!.seq, row!.action, row!.payload, row!.ledger_entry_id, row!.trace_id, row!.request_id, row!.prev_hash, row!.hash, row!.created_at],
    );
    expect(broken.code).toBe(1);
    expect(broken.stderr).toContain(`ledger row ${row!.ledger_entry_id} (account ${savings}) has no audit row`);
    expect(broken.stderr).toMatch(new RegExp(`account ${savings}, seq 2\\): expected seq 1`));
    expect((await runAuditVerify({ DATABASE_URL: url })).code).toBe(0);
  });

  it('fails when a balance is not the sum of its movements', async () => {
    await expectCaught(
      'UPDATE accounts SET balance_minor = balance_minor + 1 WHERE id = $1',
      'UPDATE accounts SET balance_minor = balance_minor - 1 WHERE id = $1',
      [savings],
      new RegExp(`account ${savings}: balance \\d+ is not the sum of its movements`),
    );
  });
});
