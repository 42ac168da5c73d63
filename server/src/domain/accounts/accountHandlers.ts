/**
 * The customer's accounts: list (oldest first, a page at a time: the signed cursor of
 * transactionCursor.ts over (openedAt, id), scoped to the customer), open and read one.
 * Every read is scoped to its owner:
 * another customer's account id answers 404, exactly as an id that does not exist.
 * Opening runs the money sends' way (accountOpening.ts): with an Idempotency-Key under its
 * protocol; without one, every request opens an account.
 */
import type { components } from '@tidewater/spec/openapi';
import { ApiProblem } from '../../errors/apiProblem.ts';
import type { Handlers } from '../../contract/operations.ts';
import { parseJsonColumn } from '../../data/statements.ts';
import { accountOpener } from './accountOpening.ts';
import type { DomainDeps } from '../deps.ts';

type Account = components['schemas']['Account'];

/** An account as the database's `wire_account` builds it (jsonb as text or parsed, as the driver gives it). */
interface WireRow {
  account: unknown;
}

/** Accounts on one page unless `limit` says otherwise (spec: AccountLimit); most customers have them all on one. */
const defaultLimit = 50;

/** After every account: the position a first page starts from, oldest first. */
const afterNone = { createdAt: '-infinity', id: '00000000-0000-0000-0000-000000000000' };

/** The handlers of listing, opening and reading accounts. */
export function accountHandlers(deps: DomainDeps): Pick<Handlers, 'listAccounts' | 'openAccount' | 'getAccount'> {
  const { data, cursors } = deps;
  const openOnce = accountOpener(deps);
  /** 401 for a signed-in user who no longer exists (their accounts went with them). */
  async function refuseGoneUser(userId: string): Promise<void> {
    const [user] = await data.readDb().$queryRaw<{ id: string }[]>`SELECT id::text AS id FROM users WHERE id = ${userId}::uuid`;
    if (!user) throw new ApiProblem('UNAUTHENTICATED', 'The signed-in user no longer exists.');
  }

  return {
    async listAccounts({ caller, query }) {
      const limit = Number(query.limit ?? defaultLimit);
      // The customer is the cursor's scope: one made for another list (or customer) is refused.
      const scope = `accounts:${caller.userId}`;
      const after = query.cursor ? cursors.decode(scope, query.cursor) : undefined;
      const from = after ? { createdAt: after.createdAt.toISOString(), id: after.id } : afterNone;
      const [, rows] = await Promise.all([
        refuseGoneUser(caller.userId),
        data.readDb().$queryRaw<WireRow[]>`
          SELECT wire_account(a, u.primary_account_id) AS account
          FROM accounts a JOIN users u ON u.id = a.user_id
          WHERE a.user_id = ${caller.userId}::uuid AND (a.opened_at, a.id) > (${from.createdAt}::timestamptz, ${from.id}::uuid)
          ORDER BY a.opened_at, a.id LIMIT ${limit + 1}::int`,
      ]);
      const accounts = rows.map((row) => parseJsonColumn<Account>(row.account));
      const page = accounts.slice(0, limit);
      const last = page.at(-1);
      const nextCursor = accounts.length > limit && last ? cursors.encode(scope, { createdAt: new Date(last.openedAt), id: last.id }) : null;
      return { status: 200, body: { items: page, nextCursor } };
    },

    async openAccount({ caller, body, headers }) {
      await refuseGoneUser(caller.userId);
      return openOnce({ userId: caller.userId, key: headers['Idempotency-Key'], body });
    },

    async getAccount({ caller, path }) {
      const [, [row]] = await Promise.all([
        refuseGoneUser(caller.userId),
        data.readDb().$queryRaw<WireRow[]>`
          SELECT wire_account(a, u.primary_account_id) AS account
          FROM accounts a JOIN users u ON u.id = a.user_id WHERE a.id = ${path.accountId}::uuid AND a.user_id = ${caller.userId}::uuid`,
      ]);
      if (!row) throw new ApiProblem('ACCOUNT_NOT_FOUND');
      return { status: 200, body: parseJsonColumn<Account>(row.account) };
    },
  };
}
