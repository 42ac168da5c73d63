/**
 * Confirmation of payee (adr/0046): `getPayee` answers who a handle belongs to (their
 * display name) so the payer sees it before the PIN. Each look-up counts for the caller in
 * the database (`payee_lookups`), PAYEE_LOOKUP_LIMIT (30) per PAYEE_LOOKUP_WINDOW_MS (60 s),
 * then 429: the read cannot list who banks here. An unknown handle counts too.
 */
import { ApiProblem } from '../../errors/apiProblem.ts';
import type { Handlers } from '../../contract/operations.ts';
import type { DomainDeps } from '../deps.ts';
import { sqlOf } from '../../data/statements.ts';

/** The handler of the payee look-up. */
export function payeeHandlers({ data, config }: DomainDeps): Pick<Handlers, 'getPayee'> {
  const windowMs = Math.round(config.payeeLookupWindowMs);
  return {
    async getPayee({ caller, path }) {
      const [recent] = await data.read((db) => sqlOf(db).query<{ count: number; clearsIn: number | null }>`
        SELECT count(*)::int AS count,
               extract(epoch FROM min(looked_up_at) + ${windowMs}::int * interval '1 millisecond' - now())::float8 AS "clearsIn"
        FROM payee_lookups WHERE user_id = ${caller.userId}::uuid AND looked_up_at > now() - ${windowMs}::int * interval '1 millisecond'`);
      if (recent!.count >= config.payeeLookupLimit) {
        throw new ApiProblem('TOO_MANY_REQUESTS', 'Too many payee look-ups. Try again in a moment.', { retryAfterSeconds: Math.max(1, Math.ceil(recent!.clearsIn ?? windowMs / 1000)) });
      }
      await data.write((db) => sqlOf(db).execute`INSERT INTO payee_lookups (user_id) VALUES (${caller.userId}::uuid)`);
      // Old rows are of no use to any count: one look-up in a hundred sweeps them.
      if (Math.random() < 0.01) {
        await data.write((db) => sqlOf(db).execute`DELETE FROM payee_lookups WHERE looked_up_at < now() - ${windowMs}::int * interval '1 millisecond'`).catch(() => {});
      }
      const [payee] = await data.read((db) => sqlOf(db).query<{ handle: string; displayName: string }>`
        SELECT handle, display_name AS "displayName" FROM users WHERE handle = ${path.handle}::text`);
      if (!payee) throw new ApiProblem('PAYEE_NOT_FOUND', `No customer has the handle ${path.handle}.`);
      return { status: 200, body: payee };
    },
  };
}
