/**
 * Confirmation of payee (adr/0046): `getPayee` answers who a handle belongs to (their
 * display name) so the payer sees it before the PIN. Each look-up counts toward the
 * customer's one payee limit (payeeLookups.ts), which sends by handle share: the read
 * cannot list who banks here. An unknown handle counts too.
 */
import { ApiProblem } from '../../errors/apiProblem.ts';
import type { Handlers } from '../../contract/operations.ts';
import type { DomainDeps } from '../deps.ts';
import { payeeLookups } from './payeeLookups.ts';

/** The handler of the payee look-up. */
export function payeeHandlers({ data, config }: DomainDeps): Pick<Handlers, 'getPayee'> {
  const lookups = payeeLookups(data, config);
  return {
    async getPayee({ caller, path }) {
      await lookups.countOrRefuse(caller.userId);
      const [payee] = await data.read((db) => db.$queryRaw<{ handle: string; displayName: string }[]>`
        SELECT handle, display_name AS "displayName" FROM users WHERE handle = ${path.handle}::text`);
      if (!payee) throw new ApiProblem('PAYEE_NOT_FOUND', `No customer has the handle ${path.handle}.`);
      return { status: 200, body: payee };
    },
  };
}
