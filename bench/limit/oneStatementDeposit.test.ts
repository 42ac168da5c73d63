/**
 * The one-statement baseline writes what the API's deposit writes: on one account, an API
 * deposit, a one-statement deposit and another API deposit give three rows of one shape each
 * (account, ledger, audit), one unbroken chain, and `npm run audit:verify` accepts it; 24 of
 * them at once on one account queue on its row and leave a chain and balance it accepts too.
 */
import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { bank } from '@tidewater/test-support/bank';
import { query, runAuditVerify } from '@tidewater/test-support/bankDatabase';
import { apiBesideBaseline } from './apiBesideBaseline.ts';
import { oneStatementDeposit } from './oneStatementDeposit.ts';

interface Movement {
  kind: string;
  amount: string;
  balance_after: string;
  description: string | null;
  counterparty: string | null;
  transfer_id: string | null;
  idempotency_key: string | null;
  action: string;
  payload: Record<string, unknown>;
  ledger_entry_id: string;
  entry_id: string;
  trace_id: string | null;
  request_id: string | null;
  seq: number;
}

/** Every movement of `accountId` with its audit row, in chain order. */
const movementsOf = (url: string, accountId: string) =>
  query<Movement>(
    url,
    `SELECT e.kind, e.amount_minor::text AS amount, e.balance_after_minor::text AS balance_after, e.description, e.counterparty,
            e.transfer_id::text AS transfer_id, e.idempotency_key, r.action, r.payload, r.ledger_entry_id::text AS ledger_entry_id,
            e.id::text AS entry_id, r.trace_id, r.request_id::text AS request_id, r.seq
     FROM audit_rows r JOIN ledger_entries e ON e.id = r.ledger_entry_id WHERE r.account_id = $1 ORDER BY r.seq`,
    [accountId],
  );

/** A movement with what differs between any two deposits (ids, keys, balances) replaced by their kind. */
const shapeOf = (m: Movement) => ({
  ...m,
  balance_after: typeof m.balance_after,
  idempotency_key: m.idempotency_key === m.payload.idempotencyKey ? 'the key, also in the payload' : m.idempotency_key,
  payload: { ...m.payload, balanceAfterMinor: typeof m.payload.balanceAfterMinor, idempotencyKey: typeof m.payload.idempotencyKey },
  ledger_entry_id: m.ledger_entry_id === m.entry_id ? 'its ledger row' : m.ledger_entry_id,
  entry_id: typeof m.entry_id,
  trace_id: typeof m.trace_id,
  request_id: typeof m.request_id,
  seq: typeof m.seq,
});

describe('the one-statement deposit (limit baseline) against the API, on a real database', () => {
  const on = apiBesideBaseline();

  it('writes the rows an API deposit writes, continuing and continued by its chain', async () => {
    const key = randomUUID();
    expect((await bank(on.api.url).deposit(on.ada, on.ada.accountId, 250)).status).toBe(201);
    await oneStatementDeposit(on.pool, on.ada.accountId, 250, key);
    expect((await bank(on.api.url).deposit(on.ada, on.ada.accountId, 250)).status).toBe(201);

    const [viaApi, viaStatement, viaApiAgain] = await movementsOf(on.url, on.ada.accountId);
    expect(viaStatement).toMatchObject({ seq: 2, amount: '250', balance_after: '500', idempotency_key: key });
    expect(viaStatement!.payload).toEqual({
      kind: 'deposit', amountMinor: '250', balanceAfterMinor: '500', description: null, counterparty: null, idempotencyKey: key, transferId: null,
    });
    expect(shapeOf(viaStatement!)).toEqual(shapeOf(viaApi!));
    expect(shapeOf(viaApiAgain!)).toEqual(shapeOf(viaApi!));
    const [account] = await query<{ balance: string; version: number; audit_seq: number }>(
      on.url, 'SELECT balance_minor::text AS balance, version, audit_seq FROM accounts WHERE id = $1', [on.ada.accountId]);
    expect(account).toMatchObject({ balance: '750', audit_seq: 3 });
    expect(await bank(on.api.url).balance(on.ada, on.ada.accountId)).toBe(750);

    const verified = await runAuditVerify({ DATABASE_URL: on.url });
    expect(verified.stderr).toBe('');
    expect(verified.code).toBe(0);
  });

  it('queues 24 parallel deposits into one account on its row: every one lands, one chain, verified', async () => {
    const [{ id }] = await query<{ id: string }>(on.url, `INSERT INTO accounts (id, user_id, name) VALUES (gen_random_uuid(), $1, 'one statement') RETURNING id::text AS id`, [on.ada.userId]) as [{ id: string }];
    await Promise.all(Array.from({ length: 24 }, () => oneStatementDeposit(on.pool, id, 10)));

    const movements = await movementsOf(on.url, id);
    expect(movements.map((m) => m.seq)).toEqual(Array.from({ length: 24 }, (_, i) => i + 1));
    expect(movements.map((m) => m.balance_after)).toEqual(Array.from({ length: 24 }, (_, i) => String(10 * (i + 1))));
    const [account] = await query<{ balance: string; version: number }>(on.url, 'SELECT balance_minor::text AS balance, version FROM accounts WHERE id = $1', [id]);
    expect(account).toMatchObject({ balance: '240', version: 24 });
    const verified = await runAuditVerify({ DATABASE_URL: on.url });
    expect(verified.stderr).toBe('');
    expect(verified.code).toBe(0);
  });

  it('throws for an account that does not exist, writing nothing', async () => {
    await expect(oneStatementDeposit(on.pool, randomUUID(), 10)).rejects.toThrow(/no account/);
  });
});
