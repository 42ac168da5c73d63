/**
 * listTransactions: an account's movements, newest first, a page at a time (a signed,
 * opaque cursor of (createdAt, id): transactionCursor.ts); with `idempotencyKey`, only what the send made with that
 * key wrote on that account (an empty list: nothing of it is there now, which says nothing of a send still
 * in flight; the key's own answer says what it did, adr/0048). Only the customer's own
 * accounts, open or closed (404 otherwise).
 *
 * A look-up by key reads the primary: a replica that lags would leave out money that moved.
 */
import type { Handlers } from '../../contract/operations.ts';
import { ApiProblem } from '../../errors/apiProblem.ts';
import type { DomainDeps } from '../deps.ts';
import { toTransaction } from '../money/transactionView.ts';

const defaultLimit = 20;

/** The handler of listing movements. */
export function transactionHandlers({ data, cursors }: DomainDeps): Pick<Handlers, 'listTransactions'> {
  return {
    async listTransactions({ caller, query }) {
      const { accountId, idempotencyKey, cursor } = query;
      const limit = Number(query.limit ?? defaultLimit);
      const after = cursor ? cursors.decode(accountId, cursor) : undefined;
      const list = async (db: ReturnType<typeof data.readDb>) => {
        const account = await db.account.findFirst({ where: { id: accountId, userId: caller.userId }, select: { id: true } });
        if (!account) throw new ApiProblem('ACCOUNT_NOT_FOUND', 'No account of yours has this id.');
        return db.ledgerEntry.findMany({
          where: {
            accountId,
            ...(idempotencyKey ? { idempotencyKey } : {}),
            ...(after ? { OR: [{ createdAt: { lt: after.createdAt } }, { createdAt: after.createdAt, id: { lt: after.id } }] } : {}),
          },
          orderBy: [{ createdAt: 'desc' }, { id: 'desc' }],
          take: limit + 1,
        });
      };
      const rows = idempotencyKey ? await data.read(list) : await list(data.readDb());
      const page = rows.slice(0, limit);
      const last = page.at(-1);
      return {
        status: 200,
        body: { items: page.map(toTransaction), nextCursor: rows.length > limit && last ? cursors.encode(accountId, last) : null },
      };
    },
  };
}
