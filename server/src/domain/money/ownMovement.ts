/**
 * The one movement of a deposit or a withdrawal: on the sender's own account (locked by
 * the send's transaction), carrying the sender's key and note, no counterparty, no
 * transfer; answered as the wire's Transaction. A withdrawal posts it as a step of its
 * attempt (`postOwnMovement`); a deposit posts it in the one statement that also locks
 * the account and lands the claim (`depositAtOnce`, adr/0022).
 */
import { randomUUID } from 'node:crypto';
import type { components } from '@tidewater/spec/openapi';
import type { Tx } from '../../data/dataLayer.ts';
import { parseJsonColumn, type Statements } from '../../data/statements.ts';
import { contentAroundLink } from '../audit/auditChain.ts';
import type { Claim } from '../idempotency/idempotency.ts';
import { writtenNote } from '../writtenText.ts';
import { byId, lockWait, type AccountRow, type AccountsById } from './accountRows.ts';
import { MAX_BALANCE_MINOR } from './checks.ts';
import { postMovement, type Stamp } from './ledger.ts';
import type { AtOnce } from './moneySend.ts';
import { toTransaction } from './transactionView.ts';

type Transaction = components['schemas']['Transaction'];

/** Posts `amountMinor` (positive in, negative out) on `accountId` as `kind`. */
export async function postOwnMovement(
  tx: Tx,
  accounts: AccountsById,
  accountId: string,
  movement: { kind: 'deposit' | 'withdrawal'; amountMinor: bigint; description: string | undefined },
  request: Stamp & { readonly key: string },
): Promise<Transaction> {
  const entry = await postMovement(tx, accounts.get(accountId)!, {
    kind: movement.kind,
    amountMinor: movement.amountMinor,
    description: writtenNote(movement.description),
    counterparty: null,
    idempotencyKey: request.key,
    transferId: null,
  }, request);
  return toTransaction(entry);
}

/**
 * A deposit's whole attempt in ONE statement (adr/0022), which is its own commit
 * (adr/0027): lock the account and this request's claim (each lock wait bounded by `lockWaitMs`),
 * post the movement with its audit row, whose link the statement computes from the head it
 * just locked (auditChain.ts `contentAroundLink`), and land the claim with its answer, as
 * idempotency.ts `land` does. So the account stays locked for no round trip at all.
 *
 * It posts only what the database's own checks allow (the customer's open account, a
 * balance within 0 and the ceiling: the deposit's `check`, which words a refusal), and only
 * while the claim it locked is still this request's: a late or repeated send of it can
 * never post twice, nor after its claim was released or taken over.
 */
export async function depositAtOnce(
  sql: Statements,
  claim: Claim,
  accountId: string,
  deposit: { amountMinor: bigint; description: string | undefined },
  request: Stamp,
  lockWaitMs: number,
): Promise<AtOnce<Transaction>> {
  const entryId = randomUUID();
  const description = writtenNote(deposit.description);
  const amount = deposit.amountMinor;
  const payload = { kind: 'deposit', amountMinor: amount.toString(), description, counterparty: null, idempotencyKey: claim.key, transferId: null };
  const around = contentAroundLink({ accountId, action: 'deposit', payload, ledgerEntryId: entryId, requestId: request.requestId, traceId: request.traceId });
  // The answer but for the two values the database knows: the balance after and createdAt (its clock, as postMovement's).
  const { balanceAfterMinor: _balance, createdAt: _at, ...known } = toTransaction({
    id: entryId, accountId, kind: 'deposit', amountMinor: amount, balanceAfterMinor: 0n, description,
    counterparty: null, idempotencyKey: claim.key, transferId: null, createdAt: new Date(0),
  });
  const rows = await sql.query<AccountRow & { moved: boolean; owned: boolean; responseBody: unknown }>`
    WITH bound AS (
      SELECT set_config('lock_timeout', ${lockWait(lockWaitMs)}, true)
    ), claimed AS (
      SELECT r.id FROM bound, idempotency_records r
      WHERE r.id = ${claim.id}::uuid AND r.owner_token = ${claim.ownerToken}::uuid AND r.status = 'Processing' AND r.landed_at IS NULL
      FOR UPDATE OF r
    ), locked AS (
      SELECT a.id, a.user_id, a.name, a.status, a.balance_minor, a.audit_seq, a.audit_hash
      FROM bound, accounts a
      WHERE a.id = ${accountId}::uuid
      FOR UPDATE OF a
    ), next AS (
      SELECT id, balance_minor + ${amount}::bigint AS balance_after, audit_seq + 1 AS seq, audit_hash AS prev_hash
      FROM locked
      WHERE user_id = ${claim.userId}::uuid AND status = 'open' AND balance_minor + ${amount}::bigint BETWEEN 0 AND ${MAX_BALANCE_MINOR}::bigint
        AND EXISTS (SELECT 1 FROM claimed)
    ), linked AS (
      SELECT next.*, encode(sha256(convert_to(
        prev_hash || chr(10) || ${around.before}::text || balance_after::text || ${around.between}::text || seq::text || ${around.after}::text, 'UTF8')), 'hex') AS hash
      FROM next
    ), moved AS (
      UPDATE accounts a SET balance_minor = linked.balance_after, version = a.version + 1, audit_seq = linked.seq, audit_hash = linked.hash
      FROM linked WHERE a.id = linked.id
    ), entry AS (
      INSERT INTO ledger_entries (id, account_id, kind, amount_minor, balance_after_minor, description, counterparty, idempotency_key, transfer_id, created_at)
      SELECT ${entryId}::uuid, linked.id, 'deposit', ${amount}::bigint, linked.balance_after, ${description}::text, NULL, ${claim.key}::text, NULL, clock_timestamp()
      FROM linked
      RETURNING balance_after_minor, created_at
    ), audit AS (
      INSERT INTO audit_rows (account_id, seq, action, payload, ledger_entry_id, trace_id, request_id, prev_hash, hash)
      SELECT linked.id, linked.seq, 'deposit', ${JSON.stringify(payload)}::jsonb || jsonb_build_object('balanceAfterMinor', linked.balance_after::text),
             ${entryId}::uuid, ${request.traceId}::text, ${request.requestId}::uuid, linked.prev_hash, linked.hash
      FROM linked
    ), landed AS (
      UPDATE idempotency_records r
      SET landed_at = now(), status = 'Executed', response_status = 201, completed_at = now(),
          response_body = ${JSON.stringify(known)}::jsonb || jsonb_build_object(
            'balanceAfterMinor', entry.balance_after_minor,
            'createdAt', to_char(entry.created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'))
      FROM entry
      WHERE r.id = ${claim.id}::uuid AND r.owner_token = ${claim.ownerToken}::uuid AND r.status = 'Processing' AND r.landed_at IS NULL
      RETURNING r.response_body
    )
    SELECT l.id::text AS id, l.user_id::text AS "userId", l.name, l.status, l.balance_minor::text AS "balanceMinor",
           l.audit_seq AS "auditSeq", l.audit_hash AS "auditHash",
           EXISTS (SELECT 1 FROM entry) AS moved, EXISTS (SELECT 1 FROM claimed) AS owned, (SELECT response_body FROM landed) AS "responseBody"
    FROM locked l`;
  const row = rows[0];
  return {
    accounts: byId(rows),
    moved: row?.moved === true,
    owned: row?.owned === true,
    body: row?.responseBody === null || row?.responseBody === undefined ? undefined : parseJsonColumn<Transaction>(row.responseBody),
  };
}
