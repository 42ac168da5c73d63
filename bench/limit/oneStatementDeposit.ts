/**
 * The one-statement baseline of a deposit: ONE autocommit statement, prepared (named), from a
 * bare `pg` pool of the API's size, writing exactly the rows the API's deposit writes (the
 * database's `post_movement`, server/prisma/migrations/1764810000000_audit_payload_built_once.sql)
 * and nothing more: no idempotency claim, no stored answer, no lock timeout, no HTTP.
 *
 *   head  — lock the account row, read the chain head
 *   link  — the next link: balance after, seq, a fresh ledger entry id, the payload, and the
 *           audit hash, SHA-256 of the previous hash and the row's canonical JSON (keys
 *           sorted, no whitespace), spelled in SQL as `post_movement` hashes it
 *   moved — balance, version and chain head on the account
 *   entry — the ledger row
 *   then  — the audit row
 *
 * The head is read under its lock and the update's own row follows it (READ COMMITTED re-reads
 * a row updated since the statement's snapshot), so parallel deposits into one account queue
 * on that lock and the chain cannot fork; the bench's unit test runs 24 at once and
 * `npm run audit:verify` accepts the chain.
 */
import { randomUUID } from 'node:crypto';
import type pg from 'pg';

/** A JSON string member of the hashed content, as canonicalJson spells it. */
const text = (sql: string) => `to_json(${sql})::text`;

const oneStatement = {
  name: 'one_statement_deposit',
  text: `WITH head AS (
    SELECT id, balance_minor, audit_seq, audit_hash FROM accounts WHERE id = $1::uuid FOR UPDATE
  ), next AS (
    SELECT id, balance_minor + $2::bigint AS balance_after, audit_seq + 1 AS seq, audit_hash AS prev_hash, gen_random_uuid() AS entry_id FROM head
  ), link AS (
    SELECT next.*,
      jsonb_build_object('kind', 'deposit', 'amountMinor', $2::bigint::text, 'balanceAfterMinor', balance_after::text,
        'description', NULL, 'counterparty', NULL, 'idempotencyKey', $3::text, 'transferId', NULL) AS payload,
      encode(sha256(convert_to(prev_hash || chr(10)
        || '{"accountId":' || ${text('id::text')} || ',"action":"deposit","ledgerEntryId":' || ${text('entry_id::text')}
        || ',"payload":{"amountMinor":' || ${text('$2::bigint::text')} || ',"balanceAfterMinor":' || ${text('balance_after::text')}
        || ',"counterparty":null,"description":null,"idempotencyKey":' || ${text('$3::text')} || ',"kind":"deposit","transferId":null}'
        || ',"requestId":' || ${text('$4::uuid::text')} || ',"seq":' || seq::text || ',"traceId":' || ${text('$5::text')} || '}', 'UTF8')), 'hex') AS hash
    FROM next
  ), moved AS (
    UPDATE accounts a SET balance_minor = link.balance_after, version = a.version + 1, audit_seq = link.seq, audit_hash = link.hash
    FROM link WHERE a.id = link.id
  ), entry AS (
    INSERT INTO ledger_entries (id, account_id, kind, amount_minor, balance_after_minor, idempotency_key, created_at)
    SELECT entry_id, id, 'deposit', $2::bigint, balance_after, $3::text, clock_timestamp() FROM link
  )
  INSERT INTO audit_rows (account_id, seq, action, payload, ledger_entry_id, trace_id, request_id, prev_hash, hash)
  SELECT id, seq, 'deposit', payload, entry_id, $5::text, $4::uuid, prev_hash, hash FROM link`,
};

/**
 * One deposit of `amountMinor` into `accountId` as the one statement, under `key` (what the
 * API writes on the ledger and audit rows from the request's Idempotency-Key); a fresh
 * request id and trace id as the API's request carries. Throws when no account was moved.
 */
export async function oneStatementDeposit(pool: pg.Pool, accountId: string, amountMinor: number, key: string = randomUUID()): Promise<void> {
  const { rowCount } = await pool.query({ ...oneStatement, values: [accountId, amountMinor, key, randomUUID(), randomUUID()] });
  if (rowCount !== 1) throw new Error(`one-statement deposit: no account ${accountId}`);
}
