/**
 * The function-alone deposit (limit's floor) is the API's deposit without the API: between
 * two API deposits on one account it moves the balance and writes the ledger row, the audit
 * row and the landed key a deposit writes, in one chain `npm run audit:verify` accepts; its
 * key sent again is a replay that moves nothing.
 */
import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { bank } from '@tidewater/test-support/bank';
import { query, runAuditVerify } from '@tidewater/test-support/bankDatabase';
import { apiBesideBaseline } from './apiBesideBaseline.ts';
import { functionAloneDeposit } from './functionAloneDeposit.ts';

interface Written {
  seq: number;
  amount: string;
  balance_after: string;
  idempotency_key: string | null;
  action: string;
  payload: Record<string, unknown>;
  status: string;
  response_status: number;
  response_body: Record<string, unknown>;
}

/** Every deposit of `accountId` in chain order: its ledger row, audit row and landed key. */
const writtenFor = (url: string, accountId: string) =>
  query<Written>(
    url,
    `SELECT r.seq, e.amount_minor::text AS amount, e.balance_after_minor::text AS balance_after, e.idempotency_key, r.action, r.payload,
            k.status, k.response_status, k.response_body
     FROM audit_rows r JOIN ledger_entries e ON e.id = r.ledger_entry_id
     JOIN accounts a ON a.id = r.account_id JOIN idempotency_records k ON k.user_id = a.user_id AND k.key = e.idempotency_key
     WHERE r.account_id = $1 ORDER BY r.seq`,
    [accountId],
  );

const balanceOf = async (url: string, accountId: string) =>
  (await query<{ balance: string }>(url, 'SELECT balance_minor::text AS balance FROM accounts WHERE id = $1', [accountId]))[0]!.balance;

describe('the function-alone deposit (limit floor) on a real database', () => {
  const on = apiBesideBaseline();

  it('moves the balance and writes what an API deposit writes, in its chain', async () => {
    const key = randomUUID();
    expect((await bank(on.api.url).deposit(on.ada, on.ada.accountId, 250)).status).toBe(201);
    const done = await functionAloneDeposit(on.pool, on.ada.userId, on.ada.accountId, 250, key);
    expect(done.verdict).toBe('applied');
    expect((await bank(on.api.url).deposit(on.ada, on.ada.accountId, 250)).status).toBe(201);

    const [viaApi, alone, viaApiAgain] = await writtenFor(on.url, on.ada.accountId);
    expect(alone).toMatchObject({ seq: 2, amount: '250', balance_after: '500', idempotency_key: key, action: 'deposit', status: 'Executed', response_status: 201 });
    expect(alone!.payload).toEqual({ ...viaApi!.payload, balanceAfterMinor: '500', idempotencyKey: key });
    expect(alone!.response_body).toEqual(done.body);
    expect(Object.keys(alone!.response_body).sort()).toEqual(Object.keys(viaApi!.response_body).sort());
    expect(viaApiAgain).toMatchObject({ seq: 3, balance_after: '750' });
    expect(await balanceOf(on.url, on.ada.accountId)).toBe('750');
    expect(await bank(on.api.url).balance(on.ada, on.ada.accountId)).toBe(750);

    const verified = await runAuditVerify({ DATABASE_URL: on.url });
    expect(verified.stderr).toBe('');
    expect(verified.code).toBe(0);
  });

  it('does not move money twice for a repeated key: the second answers a replay of the first', async () => {
    const key = randomUUID();
    const before = Number(await balanceOf(on.url, on.ada.accountId));
    const first = await functionAloneDeposit(on.pool, on.ada.userId, on.ada.accountId, 40, key);
    const again = await functionAloneDeposit(on.pool, on.ada.userId, on.ada.accountId, 40, key);

    expect(first.verdict).toBe('applied');
    expect(again.verdict).toBe('replay');
    expect(again.body).toEqual(first.body);
    expect(await balanceOf(on.url, on.ada.accountId)).toBe(String(before + 40));
    expect((await writtenFor(on.url, on.ada.accountId)).filter((w) => w.idempotency_key === key)).toHaveLength(1);
  });
});
