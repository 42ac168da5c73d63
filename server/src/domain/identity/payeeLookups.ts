/**
 * One limit per customer on learning who banks here (adr/0046, adr/0064): every payee
 * look-up (`getPayee`) and every send that names a payee by handle counts in the database
 * (`payee_lookups`), PAYEE_LOOKUP_LIMIT (30) per PAYEE_LOOKUP_WINDOW_MS (60 s), then 429.
 * A handle that does not exist counts too; a send counts only once its authorisation and
 * account have passed (moneyHandlers.ts), so the 429 itself tells nothing of the payee.
 * Each counted request's answer carries the limit as RateLimit fields (`"payee-lookups"`,
 * rateLimitFields.ts).
 */
import type { Config } from '../../config.ts';
import type { DataLayer } from '../../data/dataLayer.ts';
import { ApiProblem } from '../../errors/apiProblem.ts';
import { reportRateLimit } from '../../request/rateLimitFields.ts';

/** The limit over one data layer. */
export function payeeLookups(data: DataLayer, config: Pick<Config, 'payeeLookupLimit' | 'payeeLookupWindowMs'>) {
  const windowMs = Math.round(config.payeeLookupWindowMs);
  return {
    /** Throws 429 (with its wait) when `userId` has used up the window's look-ups; else counts this one (committed before it goes on). */
    async countOrRefuse(userId: string): Promise<void> {
      const [recent] = await data.read((db) => db.$queryRaw<{ count: number; clearsIn: number | null }[]>`
        SELECT count(*)::int AS count,
               extract(epoch FROM min(looked_up_at) + ${windowMs}::int * interval '1 millisecond' - now())::float8 AS "clearsIn"
        FROM payee_lookups WHERE user_id = ${userId}::uuid AND looked_up_at > now() - ${windowMs}::int * interval '1 millisecond'`);
      const windowSeconds = windowMs / 1000;
      reportRateLimit({
        policy: 'payee-lookups', quota: config.payeeLookupLimit, windowSeconds,
        remaining: Math.max(0, config.payeeLookupLimit - Number(recent!.count) - 1), resetSeconds: Number(recent!.clearsIn ?? windowSeconds),
      });
      if (recent!.count >= config.payeeLookupLimit) {
        throw new ApiProblem('TOO_MANY_REQUESTS', 'Too many payee look-ups and payments to a handle. Try again in a moment.', {
          retryAfterSeconds: Math.max(1, Math.ceil(recent!.clearsIn ?? windowMs / 1000)),
        });
      }
      await data.write((db) => db.$executeRaw`INSERT INTO payee_lookups (user_id) VALUES (${userId}::uuid)`);
      // Old rows are of no use to any count: one look-up in a hundred sweeps them.
      if (Math.random() < 0.01) {
        await data.write((db) => db.$executeRaw`DELETE FROM payee_lookups WHERE looked_up_at < now() - ${windowMs}::int * interval '1 millisecond'`).catch(() => {});
      }
    },
  };
}

/** The payee limit's type. */
export type PayeeLookups = ReturnType<typeof payeeLookups>;
