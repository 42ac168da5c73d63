/**
 * Posting one movement: the balance, its ledger row and its audit row, in one statement
 * inside the send's transaction, on an account the transaction has locked. The audit
 * row's link is computed from the chain head read with the lock, and the head moves
 * with the balance, so the chain cannot fork.
 */
import { randomUUID } from 'node:crypto';
import type { LedgerEntry } from '../../generated/prisma/client.ts';
import type { Tx } from '../../data/dataLayer.ts';
import { sqlOf } from '../../data/statements.ts';
import { nextLink } from '../audit/auditChain.ts';
import type { AccountState } from './accountRows.ts';

/** The kinds of ledger rows (the database checks the same list). */
type LedgerKind = 'deposit' | 'withdrawal' | 'transfer_in' | 'transfer_out' | 'external_out';

/** One movement on one account: positive in, negative out. */
export interface Movement {
  kind: LedgerKind;
  amountMinor: bigint;
  description: string | null;
  counterparty: string | null;
  /** The sender's key, on the sender's own accounts only (a payee never sees it). */
  idempotencyKey: string | null;
  transferId: string | null;
}

/** Who wrote it: the request (its claim's owner token) and its trace. */
export interface Stamp {
  requestId: string;
  traceId: string | null;
}

/** A ledger row as the direct statement answers it. */
type EntryRow = Omit<LedgerEntry, 'amountMinor' | 'balanceAfterMinor' | 'createdAt'> & { amountMinor: string; balanceAfterMinor: string; createdAt: string | Date };

const toEntry = (row: EntryRow): LedgerEntry => ({
  ...row,
  amountMinor: BigInt(row.amountMinor),
  balanceAfterMinor: BigInt(row.balanceAfterMinor),
  createdAt: new Date(row.createdAt),
});

/** Posts `movement` on `account` (locked by this transaction); answers its ledger row. */
export async function postMovement(tx: Tx, account: AccountState, movement: Movement, stamp: Stamp): Promise<LedgerEntry> {
  const balanceAfter = account.balanceMinor + movement.amountMinor;
  if (balanceAfter < 0n) throw new RangeError(`posting would take account ${account.id} below zero`);
  const entryId = randomUUID();
  const payload = {
    kind: movement.kind,
    amountMinor: movement.amountMinor.toString(),
    balanceAfterMinor: balanceAfter.toString(),
    description: movement.description,
    counterparty: movement.counterparty,
    idempotencyKey: movement.idempotencyKey,
    transferId: movement.transferId,
  };
  const link = nextLink(account, {
    accountId: account.id,
    action: movement.kind,
    payload,
    ledgerEntryId: entryId,
    requestId: stamp.requestId,
    traceId: stamp.traceId,
  });
  // A direct statement (adr/0021): int8 comes back as text, created_at as an ISO string.
  const rows = await sqlOf(tx).query<EntryRow>`
    WITH moved AS (
      UPDATE accounts
      SET balance_minor = balance_minor + ${movement.amountMinor}::bigint, version = version + 1,
          audit_seq = ${link.seq}::int, audit_hash = ${link.hash}
      WHERE id = ${account.id}::uuid AND audit_seq = ${account.auditSeq}::int
      RETURNING balance_minor
    ), entry AS (
      INSERT INTO ledger_entries (id, account_id, kind, amount_minor, balance_after_minor, description, counterparty, idempotency_key, transfer_id, created_at)
      SELECT ${entryId}::uuid, ${account.id}::uuid, ${movement.kind}::text, ${movement.amountMinor}::bigint, moved.balance_minor,
             ${movement.description}::text, ${movement.counterparty}::text, ${movement.idempotencyKey}::text, ${movement.transferId}::uuid, clock_timestamp()
      FROM moved
      RETURNING *
    ), audit AS (
      INSERT INTO audit_rows (account_id, seq, action, payload, ledger_entry_id, trace_id, request_id, prev_hash, hash)
      SELECT ${account.id}::uuid, ${link.seq}::int, ${movement.kind}::text, ${JSON.stringify(payload)}::jsonb, entry.id,
             ${stamp.traceId}::text, ${stamp.requestId}::uuid, ${link.prevHash}::text, ${link.hash}::text
      FROM entry
    )
    SELECT id::text AS id, account_id::text AS "accountId", kind, amount_minor::text AS "amountMinor",
           balance_after_minor::text AS "balanceAfterMinor", description, counterparty,
           idempotency_key AS "idempotencyKey", transfer_id::text AS "transferId", created_at AS "createdAt"
    FROM entry`;
  const entry = rows[0] && toEntry(rows[0]);
  // The lock makes both impossible; a bug must not pass silently.
  if (!entry) throw new Error(`account ${account.id} moved under its own lock: its chain head changed`);
  if (entry.balanceAfterMinor !== balanceAfter) throw new Error(`account ${account.id}: balance ${entry.balanceAfterMinor}, expected ${balanceAfter}`);
  Object.assign(account, { balanceMinor: balanceAfter, auditSeq: link.seq, auditHash: link.hash });
  return entry;
}
