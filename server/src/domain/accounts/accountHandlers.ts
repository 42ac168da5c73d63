/**
 * The customer's accounts: list (oldest first, a page at a time: the signed cursor of
 * transactionCursor.ts over (openedAt, id), scoped to the customer), open and read one.
 * Every read is scoped to its owner:
 * another customer's account id answers 404, exactly as an id that does not exist.
 * Opening runs the money sends' way (accountOpening.ts): with an Idempotency-Key under its
 * protocol; without one, every request opens an account.
 */
import { ApiProblem } from '../../errors/apiProblem.ts';
import type { Handlers } from '../../contract/operations.ts';
import { accountOpener } from './accountOpening.ts';
import type { DomainDeps } from '../deps.ts';
import { toAccount, type AccountView } from '../wireViews.ts';

/** Accounts on one page unless `limit` says otherwise (spec: AccountLimit); most customers have them all on one. */
const defaultLimit = 50;

/** After every account: the position a first page starts from, oldest first. */
const afterNone = { createdAt: '-infinity', id: '00000000-0000-0000-0000-000000000000' };

/** The handlers of listing, opening and reading accounts. */
export function accountHandlers(deps: DomainDeps): Pick<Handlers, 'listAccounts' | 'openAccount' | 'getAccount'> {
  const { data, cursors } = deps;
  const openOnce = accountOpener(deps);
  async function primaryOf(userId: string): Promise<string | null> {
    const [user] = await data.readDb().$queryRaw<{ primaryAccountId: string | null }[]>`
      SELECT primary_account_id::text AS "primaryAccountId" FROM users WHERE id = ${userId}::uuid`;
    if (!user) throw new ApiProblem('UNAUTHENTICATED', 'The signed-in user no longer exists.');
    return user.primaryAccountId;
  }

  return {
    async listAccounts({ caller, query }) {
      const limit = Number(query.limit ?? defaultLimit);
      // The customer is the cursor's scope: one made for another list (or customer) is refused.
      const scope = `accounts:${caller.userId}`;
      const after = query.cursor ? cursors.decode(scope, query.cursor) : undefined;
      const from = after ? { createdAt: after.createdAt.toISOString(), id: after.id } : afterNone;
      const [primary, rows] = await Promise.all([
        primaryOf(caller.userId),
        data.readDb().$queryRaw<AccountView[]>`
          SELECT id::text AS id, name, currency, balance_minor::text AS "balanceMinor", status, opened_at AS "openedAt",
                 closed_at AS "closedAt", idempotency_key AS "idempotencyKey"
          FROM accounts
          WHERE user_id = ${caller.userId}::uuid AND (opened_at, id) > (${from.createdAt}::timestamptz, ${from.id}::uuid)
          ORDER BY opened_at, id LIMIT ${limit + 1}::int`,
      ]);
      const page = rows.slice(0, limit);
      const last = page.at(-1);
      const nextCursor = rows.length > limit && last ? cursors.encode(scope, { createdAt: new Date(last.openedAt), id: last.id }) : null;
      return { status: 200, body: { items: page.map((row) => toAccount(row, primary)), nextCursor } };
    },

    async openAccount({ caller, body, headers }) {
      await primaryOf(caller.userId); // 401 for a signed-in user who no longer exists
      return openOnce({ userId: caller.userId, key: headers['Idempotency-Key'], body });
    },

    async getAccount({ caller, path }) {
      const [primary, [row]] = await Promise.all([
        primaryOf(caller.userId),
        data.readDb().$queryRaw<AccountView[]>`
          SELECT id::text AS id, name, currency, balance_minor::text AS "balanceMinor", status, opened_at AS "openedAt",
                 closed_at AS "closedAt", idempotency_key AS "idempotencyKey"
          FROM accounts WHERE id = ${path.accountId}::uuid AND user_id = ${caller.userId}::uuid`,
      ]);
      if (!row) throw new ApiProblem('ACCOUNT_NOT_FOUND');
      return { status: 200, body: toAccount(row, primary) };
    },
  };
}
