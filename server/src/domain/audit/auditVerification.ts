/**
 * Verifies the whole audit trail of a database (`npm run audit:verify`):
 *
 * - every account's chain (auditChain.ts): seqs 1..n, each `prev_hash` the hash before,
 *   each hash its content's, the head on the account its last row;
 * - every audit row of a movement against its ledger row: same account, kind, amount and
 *   balance after;
 * - every ledger movement has its audit row;
 * - every account's balance is the sum of its movements.
 *
 * Answers one sentence per problem, naming the row; none means the trail is intact.
 * Accounts are read a page at a time.
 */
import type { Tx } from '../../data/dataLayer.ts';
import { parseJsonColumn } from '../../data/statements.ts';
import { chainProblems, type StoredAuditRow } from './auditChain.ts';

/** An account's head and sums; int8 as its decimal text (one spelling per number). */
interface AccountRow {
  id: string;
  auditSeq: number;
  auditHash: string;
  balanceMinor: string;
  ledgerSum: string;
}

/** An audit row with its ledger row's columns (null without one); int8 as decimal text. */
interface RowWithEntry extends StoredAuditRow {
  entryAccountId: string | null;
  entryKind: string | null;
  entryAmount: string | null;
  entryBalanceAfter: string | null;
}

/** What was checked, for the summary line. */
export interface AuditSummary {
  accounts: number;
  auditRows: number;
  problems: string[];
}

const pageSize = 200;

/** The problems with a movement's audit row as its ledger row says it should be. */
function movementProblems(row: RowWithEntry): string[] {
  if (!row.ledgerEntryId) return [];
  const name = `audit row ${row.id} (account ${row.accountId}, seq ${row.seq})`;
  if (row.entryAccountId === null) return [`${name}: its ledger row ${row.ledgerEntryId} does not exist`];
  const payload = row.payload as { amountMinor?: unknown; balanceAfterMinor?: unknown };
  const differences = [
    row.entryAccountId !== row.accountId && 'account',
    row.entryKind !== row.action && 'kind',
    payload.amountMinor !== String(row.entryAmount) && 'amount',
    payload.balanceAfterMinor !== String(row.entryBalanceAfter) && 'balance after',
  ].filter(Boolean);
  return differences.length ? [`${name}: differs from ledger row ${row.ledgerEntryId} in ${differences.join(', ')}`] : [];
}

/** Verifies everything described above. */
export async function verifyAuditTrail(db: Tx): Promise<AuditSummary> {
  const summary: AuditSummary = { accounts: 0, auditRows: 0, problems: [] };
  for (let after = '00000000-0000-0000-0000-000000000000'; ;) {
    const accounts = await db.$queryRaw<AccountRow[]>`
      SELECT a.id::text AS id, a.audit_seq AS "auditSeq", a.audit_hash AS "auditHash", a.balance_minor::text AS "balanceMinor",
             COALESCE((SELECT SUM(e.amount_minor) FROM ledger_entries e WHERE e.account_id = a.id), 0)::bigint::text AS "ledgerSum"
      FROM accounts a WHERE a.id > ${after}::uuid ORDER BY a.id LIMIT ${pageSize}::int`;
    for (const account of accounts) {
      const read = await db.$queryRaw<RowWithEntry[]>`
        SELECT r.id::text AS id, r.account_id::text AS "accountId", r.seq, r.action, r.payload,
               r.ledger_entry_id::text AS "ledgerEntryId", r.request_id::text AS "requestId", r.trace_id AS "traceId",
               r.prev_hash AS "prevHash", r.hash,
               e.account_id::text AS "entryAccountId", e.kind AS "entryKind",
               e.amount_minor::text AS "entryAmount", e.balance_after_minor::text AS "entryBalanceAfter"
        FROM audit_rows r LEFT JOIN ledger_entries e ON e.id = r.ledger_entry_id
        WHERE r.account_id = ${account.id}::uuid ORDER BY r.seq`;
      const rows = read.map((row) => ({ ...row, payload: parseJsonColumn<Record<string, unknown>>(row.payload) }));
      summary.accounts += 1;
      summary.auditRows += rows.length;
      summary.problems.push(...chainProblems(account.id, rows, account), ...rows.flatMap(movementProblems));
      if (account.balanceMinor !== account.ledgerSum) {
        summary.problems.push(`account ${account.id}: balance ${account.balanceMinor} is not the sum of its movements (${account.ledgerSum})`);
      }
    }
    if (accounts.length < pageSize) break;
    after = accounts.at(-1)!.id;
  }
  const unaudited = await db.$queryRaw<{ id: string; accountId: string }[]>`
    SELECT e.id::text AS id, e.account_id::text AS "accountId" FROM ledger_entries e
    WHERE NOT EXISTS (SELECT 1 FROM audit_rows r WHERE r.ledger_entry_id = e.id) ORDER BY e.id LIMIT 100`;
  summary.problems.push(...unaudited.map((entry) => `ledger row ${entry.id} (account ${entry.accountId}) has no audit row`));
  return summary;
}
