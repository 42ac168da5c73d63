/**
 * A month's statement as the ledger holds it, in one statement (one snapshot): the
 * account (the caller's only), its opening balance (the sum of every movement before the
 * month's first instant: a balance is the sum of its movements, which `audit:verify`
 * checks) and the month's movements, oldest first. The closing balance is the opening plus
 * the month's movements, so it never depends on the order of two movements in one
 * millisecond. Month boundaries are midnight in the bank's time zone (bankCalendar.ts).
 */
import type { Tx } from '../../data/dataLayer.ts';
import { bankTimeZone, nextMonth, type CalendarMonth } from '../accounts/bankCalendar.ts';

/** One movement as a statement file shows it: int8 amounts as decimal text, the time as the driver reads it. */
interface LedgerRow {
  id: string;
  accountId: string;
  kind: string;
  amountMinor: string;
  balanceAfterMinor: string;
  description: string | null;
  counterparty: string | null;
  idempotencyKey: string | null;
  transferId: string | null;
  createdAt: string;
}

/** What a statement file shows. */
export interface MonthStatement {
  accountId: string;
  accountName: string;
  currency: string;
  /** `YYYY-MM`. */
  month: string;
  openingMinor: bigint;
  closingMinor: bigint;
  movements: LedgerRow[];
}

interface StatementRow extends Partial<LedgerRow> {
  accountName: string;
  currency: string;
  openingMinor: string;
}

/** The statement of `month` of the caller's account, or undefined when the caller has no such account. */
export async function readMonthStatement(db: Tx, userId: string, accountId: string, month: CalendarMonth): Promise<MonthStatement | undefined> {
  const end = nextMonth(month);
  const rows = await db.$queryRaw<StatementRow[]>`
    WITH account AS (
      SELECT id, name, currency FROM accounts WHERE id = ${accountId}::uuid AND user_id = ${userId}::uuid
    ), bounds AS (
      SELECT make_timestamptz(${month.year}::int, ${month.month}::int, 1, 0, 0, 0, ${bankTimeZone}::text) AS starts,
             make_timestamptz(${end.year}::int, ${end.month}::int, 1, 0, 0, 0, ${bankTimeZone}::text) AS ends
    ), opening AS (
      SELECT COALESCE(SUM(e.amount_minor), 0) AS minor
      FROM ledger_entries e, account a, bounds b WHERE e.account_id = a.id AND e.created_at < b.starts
    )
    SELECT a.name AS "accountName", a.currency, o.minor::text AS "openingMinor",
           e.id::text AS id, e.account_id::text AS "accountId", e.kind, e.amount_minor::text AS "amountMinor",
           e.balance_after_minor::text AS "balanceAfterMinor", e.description, e.counterparty,
           e.idempotency_key AS "idempotencyKey", e.transfer_id::text AS "transferId", e.created_at AS "createdAt"
    FROM account a CROSS JOIN opening o CROSS JOIN bounds b
    LEFT JOIN ledger_entries e ON e.account_id = a.id AND e.created_at >= b.starts AND e.created_at < b.ends
    ORDER BY e.created_at, e.id`;
  const [first] = rows;
  if (!first) return undefined;
  const movements = rows.filter((row): row is StatementRow & LedgerRow => row.id !== null && row.id !== undefined);
  const openingMinor = BigInt(first.openingMinor);
  return {
    accountId,
    accountName: first.accountName,
    currency: first.currency,
    month: `${month.year}-${String(month.month).padStart(2, '0')}`,
    openingMinor,
    closingMinor: movements.reduce((sum, row) => sum + BigInt(row.amountMinor), openingMinor),
    movements,
  };
}
