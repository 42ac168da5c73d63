/**
 * Confirmation of payee (adr/0046, adr/0072): `getPayee` compares the name a payer expects
 * with the name the bank holds for a handle (payeeNameMatch.ts) and gives the bank's name
 * only with a match or a close match. A handle nobody has answers `no_match` like any other
 * name, so the answer never tells who banks here. Each look-up counts toward the customer's
 * one payee limit (payeeLookups.ts), which sends by handle share; an unknown handle counts too.
 */
import type { Handlers } from '../../contract/operations.ts';
import type { DomainDeps } from '../deps.ts';
import { payeeLookups } from './payeeLookups.ts';
import { matchPayeeName } from './payeeNameMatch.ts';

/** The handler of the payee look-up. */
export function payeeHandlers({ data, config }: DomainDeps): Pick<Handlers, 'getPayee'> {
  const lookups = payeeLookups(data, config);
  return {
    async getPayee({ caller, path, query }) {
      await lookups.countOrRefuse(caller.userId);
      const [payee] = await data.read((db) => db.$queryRaw<{ displayName: string }[]>`
        SELECT display_name AS "displayName" FROM users WHERE handle = ${path.handle}::text`);
      const result = payee ? matchPayeeName(query.name, payee.displayName) : 'no_match';
      return { status: 200, body: result === 'no_match' ? { result } : { result, name: payee!.displayName } };
    },
  };
}
