/**
 * The bare-SQL baseline of a deposit: exactly the rows the API's deposit writes (the
 * database's `post_movement`, server/prisma/migrations/1764740000000_money_rules_in_the_database.sql), from a
 * bare `pg` pool of the API's size, and nothing more: no idempotency claim, no stored
 * answer, no lock timeout, no HTTP. One transaction:
 *
 *   BEGIN;
 *   SELECT balance_minor, audit_seq, audit_hash FROM accounts WHERE id = $1 FOR UPDATE;  -- lock the row, read the chain head
 *   WITH moved AS (UPDATE accounts SET balance, version, audit_seq, audit_hash …),         -- balance and chain head
 *        entry AS (INSERT INTO ledger_entries …)                                           -- the ledger row
 *   INSERT INTO audit_rows …;                                                              -- the audit row
 *   COMMIT;
 *
 * The audit hash is SHA-256 of the previous hash and the row's JSON, as the server's is.
 * With `prepared`, both statements are named, so PostgreSQL parses and plans them once per
 * connection, as the API's direct statements are (adr/0021): the fairer baseline for an
 * API that prepares its own.
 */
import { createHash, randomUUID } from 'node:crypto';
import pg from 'pg';

/** Opens `count` empty accounts of `userId` straight in the table (the API's defaults fill the rest). */
export async function openAccountsInSql(pool: pg.Pool, userId: string, count: number, label: string): Promise<string[]> {
  const { rows } = await pool.query<{ id: string }>(
    `INSERT INTO accounts (id, user_id, name) SELECT gen_random_uuid(), $1::uuid, $2 || ' ' || g FROM generate_series(1, $3::int) g RETURNING id::text AS id`,
    [userId, label, count],
  );
  return rows.map((r) => r.id);
}

/** One deposit of `amountMinor` into `accountId`, as the minimal SQL. */
export async function bareDeposit(pool: pg.Pool, accountId: string, amountMinor: number, prepared = false): Promise<void> {
  const client = await pool.connect();
  try {
    await client.query('BEGIN');
    const { rows } = await client.query<{ balance_minor: string; audit_seq: number; audit_hash: string }>({
      ...(prepared ? { name: 'bare_lock' } : {}),
      text: 'SELECT balance_minor, audit_seq, audit_hash FROM accounts WHERE id = $1 FOR UPDATE',
      values: [accountId],
    });
    const head = rows[0]!;
    const entryId = randomUUID();
    const requestId = randomUUID();
    const balanceAfter = (BigInt(head.balance_minor) + BigInt(amountMinor)).toString();
    const seq = head.audit_seq + 1;
    const payload = { kind: 'deposit', amountMinor: String(amountMinor), balanceAfterMinor: balanceAfter, description: null, counterparty: null, idempotencyKey: null, transferId: null };
    const content = { accountId, seq, action: 'deposit', payload, ledgerEntryId: entryId, requestId, traceId: null };
    const hash = createHash('sha256').update(`${head.audit_hash}\n${JSON.stringify(content)}`).digest('hex');
    await client.query({
      ...(prepared ? { name: 'bare_move' } : {}),
      text: `WITH moved AS (
         UPDATE accounts SET balance_minor = balance_minor + $2::bigint, version = version + 1, audit_seq = $3::int, audit_hash = $4
         WHERE id = $1::uuid RETURNING balance_minor
       ), entry AS (
         INSERT INTO ledger_entries (id, account_id, kind, amount_minor, balance_after_minor, created_at)
         SELECT $5::uuid, $1::uuid, 'deposit', $2::bigint, moved.balance_minor, clock_timestamp() FROM moved
         RETURNING id
       )
       INSERT INTO audit_rows (account_id, seq, action, payload, ledger_entry_id, request_id, prev_hash, hash)
       SELECT $1::uuid, $3::int, 'deposit', $6::jsonb, entry.id, $7::uuid, $8, $4 FROM entry`,
      values: [accountId, amountMinor, seq, hash, entryId, JSON.stringify(payload), requestId, head.audit_hash],
    });
    await client.query('COMMIT');
  } catch (error) {
    await client.query('ROLLBACK').catch(() => {});
    throw error;
  } finally {
    client.release();
  }
}
