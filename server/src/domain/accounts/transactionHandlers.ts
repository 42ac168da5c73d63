/**
 * listTransactions: an account's movements, newest first, a page at a time (a signed,
 * opaque cursor of (createdAt, id): transactionCursor.ts); with `idempotencyKey`, only what the send made with that
 * key wrote on that account (an empty list: nothing of it is there now, which says nothing of a send still
 * in flight; the key's own answer says what it did, adr/0048). Only the customer's own
 * accounts, open or closed (404 otherwise).
 *
 * A look-up by key reads the primary: a replica that lags would leave out money that moved.
 *
 * Each movement of a transfer by handle carries the other customer's display name, read
 * with the page (confirmation of payee in both parties' movements, adr/0050): the ledger
 * keeps the handle it was sent to, the name is whatever the bank knows now.
 */
import type { Handlers } from '../../contract/operations.ts';
import { ApiProblem } from '../../errors/apiProblem.ts';
import type { DomainDeps } from '../deps.ts';
import { toTransaction } from '../money/transactionView.ts';

const defaultLimit = 20;

type Db = ReturnType<DomainDeps['data']['readDb']>;

/** The handler of listing movements. */
export function transactionHandlers({ data, cursors }: DomainDeps): Pick<Handlers, 'listTransactions'> {
  return {
    async listTransactions({ caller, query }) {
      const { accountId, idempotencyKey, cursor } = query;
      const limit = Number(query.limit ?? defaultLimit);
      const after = cursor ? cursors.decode(accountId, cursor) : undefined;
      const list = async (db: Db) => {
        const account = await db.account.findFirst({ where: { id: accountId, userId: caller.userId }, select: { id: true } });
        if (!account) throw new ApiProblem('ACCOUNT_NOT_FOUND', 'No account of yours has this id.');
        const rows = await db.ledgerEntry.findMany({
          where: {
            accountId,
            ...(idempotencyKey ? { idempotencyKey } : {}),
            ...(after ? { OR: [{ createdAt: { lt: after.createdAt } }, { createdAt: after.createdAt, id: { lt: after.id } }] } : {}),
          },
          orderBy: [{ createdAt: 'desc' }, { id: 'desc' }],
          take: limit + 1,
        });
        return { rows, names: await displayNamesOf(db, rows) };
      };
      const { rows, names } = idempotencyKey ? await data.read(list) : await list(data.readDb());
      const page = rows.slice(0, limit);
      const last = page.at(-1);
      const items = page.map((row) => ({ ...toTransaction(row), counterpartyName: names.get(handleOf(row.counterparty) ?? '') ?? null }));
      return {
        status: 200,
        body: { items, nextCursor: rows.length > limit && last ? cursors.encode(accountId, last) : null },
      };
    },
  };
}

/** The handle a movement's counterparty names (`@grace_h` → `grace_h`), or null (an account's name, an IBAN's beneficiary). */
function handleOf(counterparty: string | null): string | null {
  return counterparty?.startsWith('@') ? counterparty.slice(1) : null;
}

/** The display names of the handles these movements name, in one read on the same connection. */
async function displayNamesOf(db: Db, rows: { counterparty: string | null }[]): Promise<Map<string, string>> {
  const handles = [...new Set(rows.map((row) => handleOf(row.counterparty)).filter((handle) => handle !== null))];
  if (handles.length === 0) return new Map();
  const users = await db.user.findMany({ where: { handle: { in: handles } }, select: { handle: true, displayName: true } });
  return new Map(users.map((user) => [user.handle, user.displayName]));
}
