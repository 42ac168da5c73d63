/**
 * The one daily ceiling on money leaving a customer (DAILY_SEND_LIMIT_MINOR, default
 * 10,000.00 EUR; adr/0045): withdrawals, transfers to another customer and external
 * transfers, per customer, across all their accounts, per UTC calendar day. Each such send
 * spends a step-up authorisation bound to its amount in the transaction that moves it, so
 * the authorisations spent today are the money that left today. An attempt counts them
 * after locking the customer's row, so parallel sends of one customer cannot pass it together.
 */
import { ApiProblem } from '../../errors/apiProblem.ts';
import type { Queryable } from './accountRows.ts';

/** What left the customer since 00:00 UTC today (the database's clock), in minor units. */
export async function sentToday(db: Queryable, userId: string): Promise<bigint> {
  const rows = await db.$queryRaw<{ sent: bigint }[]>`
    SELECT COALESCE(SUM(amount_minor), 0)::bigint AS sent
    FROM step_up_authorizations
    WHERE user_id = ${userId}::uuid AND used_at >= date_trunc('day', now() AT TIME ZONE 'UTC') AT TIME ZONE 'UTC'`;
  return rows[0]?.sent ?? 0n;
}

/** 422 DAILY_LIMIT_EXCEEDED when `amountMinor` would take today's total above `limitMinor`. */
export function withinDailyLimit(sentSoFar: bigint, amountMinor: bigint, limitMinor: number): void {
  const limit = BigInt(Math.floor(limitMinor));
  if (sentSoFar + amountMinor > limit) {
    const left = limit > sentSoFar ? limit - sentSoFar : 0n;
    throw new ApiProblem('DAILY_LIMIT_EXCEEDED', `Money leaving your accounts is limited to ${euros(limit)} EUR a day; ${euros(left)} EUR are left today.`);
  }
}

/** 123456n → "1234.56". */
function euros(minor: bigint): string {
  return `${minor / 100n}.${(minor % 100n).toString().padStart(2, '0')}`;
}
