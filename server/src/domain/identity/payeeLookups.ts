/**
 * One limit per customer on learning who banks here (adr/0046, adr/0064): every payee
 * look-up (`getPayee`) and every send that names a payee by handle counts in the database
 * (`payee_lookups`), PAYEE_LOOKUP_LIMIT (30) per PAYEE_LOOKUP_WINDOW_MS (60 s), then 429.
 * A handle that does not exist counts too; a send counts only once its authorisation and
 * account have passed, inside its one statement (`money_send_claiming`, adr/0079), so the
 * 429 itself tells nothing of the payee. Both count with the database's one rule of the
 * window (`count_payee_lookup`, one statement). Each counted request's answer carries the limit as
 * RateLimit fields (`"payee-lookups"`, rateLimitFields.ts).
 */
import type { Config } from '../../config.ts';
import type { DataLayer } from '../../data/dataLayer.ts';
import { reportRateLimit } from '../../request/rateLimitFields.ts';
import { refusalOf } from '../money/refusals.ts';

/** The window as a count found it: the look-ups counted before this one, and the seconds until the oldest leaves it. */
export interface LookupWindow {
  readonly lookupsBefore: number;
  readonly lookupsClearIn: number;
}

type LimitConfig = Pick<Config, 'payeeLookupLimit' | 'payeeLookupWindowMs'>;

/** Notes the limit on the current request's answer, as `window` found it (this look-up counted, or refused). */
export function reportLookupWindow(config: LimitConfig, window: LookupWindow): void {
  reportRateLimit({
    policy: 'payee-lookups', quota: config.payeeLookupLimit, windowSeconds: Math.round(config.payeeLookupWindowMs) / 1000,
    remaining: Math.max(0, config.payeeLookupLimit - window.lookupsBefore - 1), resetSeconds: window.lookupsClearIn,
  });
}

/** The limit over one data layer. */
export function payeeLookups(data: DataLayer, config: LimitConfig) {
  return {
    /** Throws 429 (with its wait) when `userId` has used up the window's look-ups; else counts this one (committed before it goes on). */
    async countOrRefuse(userId: string): Promise<void> {
      // The window's one rule is the database's (`count_payee_lookup`), which a send to a handle counts with in its own statement.
      const [lookup] = await data.write((db) => db.$queryRaw<{ counted: boolean; lookupsBefore: number; clearsIn: number }[]>`
        SELECT counted, lookups_before AS "lookupsBefore", clears_in AS "clearsIn"
        FROM count_payee_lookup(${userId}::uuid, ${Math.floor(config.payeeLookupLimit)}::int, ${Math.round(config.payeeLookupWindowMs)}::int)`);
      const window = { lookupsBefore: Number(lookup!.lookupsBefore), lookupsClearIn: Number(lookup!.clearsIn) };
      reportLookupWindow(config, window);
      if (!lookup!.counted) throw refusalOf('TOO_MANY_REQUESTS', window);
    },
  };
}
