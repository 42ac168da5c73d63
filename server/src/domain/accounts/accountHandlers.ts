/**
 * The customer's accounts: list, open and read one. Every read is scoped to its owner:
 * another customer's account id answers 404, exactly as an id that does not exist.
 * Opening runs the money sends' way (accountOpening.ts): with an Idempotency-Key under its
 * protocol; without one, every request opens an account.
 */
import { ApiProblem } from '../../errors/apiProblem.ts';
import type { Handlers } from '../../contract/operations.ts';
import { accountOpener } from './accountOpening.ts';
import type { DomainDeps } from '../deps.ts';
import { toAccount } from '../wireViews.ts';

/** The handlers of listing, opening and reading accounts. */
export function accountHandlers(deps: DomainDeps): Pick<Handlers, 'listAccounts' | 'openAccount' | 'getAccount'> {
  const { data } = deps;
  const openOnce = accountOpener(deps);
  async function primaryOf(userId: string): Promise<string | null> {
    const user = await data.readDb().user.findUnique({ where: { id: userId }, select: { primaryAccountId: true } });
    if (!user) throw new ApiProblem('UNAUTHENTICATED', 'The signed-in user no longer exists.');
    return user.primaryAccountId;
  }

  return {
    async listAccounts({ caller }) {
      const [primary, rows] = await Promise.all([
        primaryOf(caller.userId),
        data.readDb().account.findMany({ where: { userId: caller.userId }, orderBy: [{ openedAt: 'asc' }, { id: 'asc' }] }),
      ]);
      return { status: 200, body: { items: rows.map((row) => toAccount(row, primary)) } };
    },

    async openAccount({ caller, body, headers }) {
      await primaryOf(caller.userId); // 401 for a signed-in user who no longer exists
      return openOnce({ userId: caller.userId, key: headers['Idempotency-Key'], body });
    },

    async getAccount({ caller, path }) {
      const [primary, row] = await Promise.all([
        primaryOf(caller.userId),
        data.readDb().account.findFirst({ where: { id: path.accountId, userId: caller.userId } }),
      ]);
      if (!row) throw new ApiProblem('ACCOUNT_NOT_FOUND');
      return { status: 200, body: toAccount(row, primary) };
    },
  };
}
