/**
 * listTransactions: an account's movements, newest first, a page at a time (a signed,
 * opaque cursor of (createdAt, id): transactionCursor.ts); with `idempotencyKey`, only what the send made with that
 * key wrote on that account (an empty list: nothing of it is there now, which says nothing of a send still
 * in flight; the key's own answer says what it did, adr/0048). Only the customer's own
 * accounts, open or closed (404 otherwise).
 *
 * Search and filters (movementFilters.ts) narrow either list; the cursor marks only a position, so
 * the same filters sent again with it give the next page of the filtered list.
 *
 * A look-up by key reads the primary: a replica that lags would leave out money that moved.
 *
 * Each movement is the wire's Transaction as the database builds it (`wire_transaction`, the
 * one view of a movement, which a send's stored answer uses too, adr/0076): a transfer by
 * handle's carries the other customer's display name (confirmation of payee in both parties'
 * movements, adr/0050): the ledger keeps the handle it was sent to, the name is whatever the
 * bank knows now.
 */
import type { components } from '@tidewater/spec/openapi';
import type { Handlers } from '../../contract/operations.ts';
import { parseJsonColumn, statementsOf, type Statements } from '../../data/statements.ts';
import { ApiProblem } from '../../errors/apiProblem.ts';
import type { DomainDeps } from '../deps.ts';
import { bankTimeZone } from './bankCalendar.ts';
import { movementFiltersOf } from './movementFilters.ts';

type Transaction = components['schemas']['Transaction'];

/** A listed movement: its wire view as jsonb (text or parsed, as the driver gives it). */
interface ListedRow {
  transaction: unknown;
}

const defaultLimit = 20;

/** Before every movement: the position a first page starts from, newest first. */
const beforeAll = { createdAt: 'infinity', id: 'ffffffff-ffff-ffff-ffff-ffffffffffff' };

/** The handler of listing movements. */
export function transactionHandlers({ data, cursors }: DomainDeps): Pick<Handlers, 'listTransactions'> {
  return {
    async listTransactions({ caller, query }) {
      const { accountId, idempotencyKey, cursor } = query;
      const limit = Number(query.limit ?? defaultLimit);
      const after = cursor ? cursors.decode(accountId, cursor) : undefined;
      const before = after ? { createdAt: after.createdAt.toISOString(), id: after.id } : beforeAll;
      const { textPattern, amountMinor, direction, fromDay, toDay } = movementFiltersOf(query);
      const list = async (sql: Statements) => {
        const [account] = await sql.query<{ id: string }>`
          SELECT id::text AS id FROM accounts WHERE id = ${accountId}::uuid AND user_id = ${caller.userId}::uuid`;
        if (!account) throw new ApiProblem('ACCOUNT_NOT_FOUND', 'No account of yours has this id.');
        // Two statements, not an optional filter: each keeps its own index (the key's, or the account's by time);
        // the search and filters are optional predicates in both (ILIKE's escape is its default, the backslash).
        const rows = idempotencyKey
          ? await sql.query<ListedRow>`
              SELECT wire_transaction(e) AS transaction FROM ledger_entries e
              WHERE account_id = ${accountId}::uuid AND idempotency_key = ${idempotencyKey}
                AND (created_at, id) < (${before.createdAt}::timestamptz, ${before.id}::uuid)
                AND (${textPattern}::text IS NULL OR description ILIKE ${textPattern}::text OR counterparty ILIKE ${textPattern}::text)
                AND (${amountMinor}::bigint IS NULL OR abs(amount_minor) = ${amountMinor}::bigint)
                AND (${direction}::text IS NULL OR (${direction}::text = 'in') = (amount_minor > 0))
                AND (${fromDay}::date IS NULL OR created_at >= ${fromDay}::date::timestamp AT TIME ZONE ${bankTimeZone}::text)
                AND (${toDay}::date IS NULL OR created_at < (${toDay}::date + 1)::timestamp AT TIME ZONE ${bankTimeZone}::text)
              ORDER BY created_at DESC, id DESC LIMIT ${limit + 1}::int`
          : await sql.query<ListedRow>`
              SELECT wire_transaction(e) AS transaction FROM ledger_entries e
              WHERE account_id = ${accountId}::uuid AND (created_at, id) < (${before.createdAt}::timestamptz, ${before.id}::uuid)
                AND (${textPattern}::text IS NULL OR description ILIKE ${textPattern}::text OR counterparty ILIKE ${textPattern}::text)
                AND (${amountMinor}::bigint IS NULL OR abs(amount_minor) = ${amountMinor}::bigint)
                AND (${direction}::text IS NULL OR (${direction}::text = 'in') = (amount_minor > 0))
                AND (${fromDay}::date IS NULL OR created_at >= ${fromDay}::date::timestamp AT TIME ZONE ${bankTimeZone}::text)
                AND (${toDay}::date IS NULL OR created_at < (${toDay}::date + 1)::timestamp AT TIME ZONE ${bankTimeZone}::text)
              ORDER BY created_at DESC, id DESC LIMIT ${limit + 1}::int`;
        return rows.map((row) => parseJsonColumn<Transaction>(row.transaction));
      };
      const rows = idempotencyKey ? await data.read((db) => list(statementsOf(db))) : await list(statementsOf(data.readDb()));
      const items = rows.slice(0, limit);
      const last = items.at(-1);
      const nextCursor = rows.length > limit && last ? cursors.encode(accountId, { createdAt: new Date(last.createdAt), id: last.id }) : null;
      return { status: 200, body: { items, nextCursor } };
    },
  };
}
