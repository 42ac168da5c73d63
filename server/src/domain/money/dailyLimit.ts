/**
 * The daily ceiling of external transfers (EXTERNAL_DAILY_LIMIT_MINOR, default
 * 10,000.00 EUR): per customer, across all their accounts, per UTC calendar day. An
 * attempt counts it after locking the customer's row, so two transfers of the same
 * customer cannot both pass it.
 */
import { ApiProblem } from '../../errors/apiProblem.ts';
import type { Queryable } from './accountRows.ts';

/** What the customer sent to IBANs since 00:00 UTC today (the database's clock), in minor units. */
export async function externalSentToday(db: Queryable, userId: string): Promise<bigint> {
  const rows = await db.$queryRaw<{ sent: bigint }[]>`
    SELECT COALESCE(-SUM(e.amount_minor), 0)::bigint AS sent
    FROM ledger_entries e JOIN accounts a ON a.id = e.account_id
    WHERE a.user_id = ${userId}::uuid AND e.kind = 'external_out'
      AND e.created_at >= date_trunc('day', now() AT TIME ZONE 'UTC') AT TIME ZONE 'UTC'`;
  return rows[0]?.sent ?? 0n;
}

/** 422 DAILY_LIMIT_EXCEEDED when `amountMinor` would take today's total above `limitMinor`. */
export function withinDailyLimit(sentToday: bigint, amountMinor: bigint, limitMinor: number): void {
  const limit = BigInt(Math.floor(limitMinor));
  if (sentToday + amountMinor > limit) {
    const left = limit > sentToday ? limit - sentToday : 0n;
    throw new ApiProblem('DAILY_LIMIT_EXCEEDED', `External transfers are limited to ${euros(limit)} EUR a day; ${euros(left)} EUR are left today.`);
  }
}

/** 123456n → "1234.56". */
function euros(minor: bigint): string {
  return `${minor / 100n}.${(minor % 100n).toString().padStart(2, '0')}`;
}
