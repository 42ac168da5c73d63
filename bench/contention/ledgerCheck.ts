/**
 * The ledger check after a scenario, read straight from the database: each account's
 * balance is the sum of its ledger rows (no lost update, no movement without its row),
 * and the total is what the scenario says it must be (money conserved).
 */
import type pg from 'pg';

/** The check's verdict: "ok", or what is wrong. */
export async function ledgerCheck(pool: pg.Pool, accountIds: string[], expectedTotalMinor: bigint): Promise<string> {
  const { rows } = await pool.query<{ id: string; balance: string; ledger: string }>(
    `SELECT a.id::text AS id, a.balance_minor::text AS balance,
            COALESCE((SELECT SUM(e.amount_minor) FROM ledger_entries e WHERE e.account_id = a.id), 0)::text AS ledger
     FROM accounts a WHERE a.id = ANY($1::uuid[])`,
    [accountIds],
  );
  const problems = rows.filter((r) => r.balance !== r.ledger).map((r) => `balance ${r.balance} != ledger ${r.ledger}`);
  const total = rows.reduce((sum, r) => sum + BigInt(r.balance), 0n);
  if (total !== expectedTotalMinor) problems.push(`total ${total} != expected ${expectedTotalMinor}`);
  if (rows.some((r) => BigInt(r.balance) < 0n)) problems.push('a balance below zero');
  return problems.length ? problems.join('; ') : 'ok';
}
