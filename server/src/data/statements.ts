/**
 * The statements of the bank's own commits (adr/0027, adr/0069): a statement that is its own
 * commit (`money_send`, `open_account`) is sent by the commit gate on a connection it takes
 * itself, below Prisma Client, so its SQL comes here as a tagged template. Every other
 * statement is Prisma Client's own call (`$queryRaw`, `$executeRaw` on the client the data
 * layer hands out, adr/0069); `statementsOf(client)` gives a function shared by both paths
 * (the money statement's check-only look) that client's calls in the same shape.
 *
 * On the gate's own path, values are sent as text (every placeholder is cast in the SQL,
 * `${id}::uuid`) and every column comes back as PostgreSQL's text; through Prisma Client, as
 * Prisma gives them (jsonb parsed, int8 as bigint, timestamptz as Date). A reader of both
 * casts what it needs in the SQL, and `parseJsonColumn` reads a jsonb column either way.
 */
import type { ArgType, SqlQueryable } from '@prisma/driver-adapter-utils';
import type { Prisma } from '../generated/prisma/client.ts';
import { isCommittingAdapter } from './commitGate/index.ts';
import { preparedOf, statementName } from './preparedStatements.ts';

/** What a placeholder may carry: sent as text (bigint and number too), arrays as lists. */
type SqlValue = string | number | bigint | boolean | null | readonly string[];

/** Statements on one connection or pool. */
export interface Statements {
  /** The rows of one statement, keyed by column name. */
  query<Row>(strings: TemplateStringsArray, ...values: SqlValue[]): Promise<Row[]>;
  /** The number of rows one statement changed. */
  execute(strings: TemplateStringsArray, ...values: SqlValue[]): Promise<number>;
}

const scalar: ArgType = { scalarType: 'string', arity: 'scalar' };
const list: ArgType = { scalarType: 'string', arity: 'list' };

/** A tagged template as the adapter's query: `$1…$n` placeholders, values as text. */
function toQuery(strings: TemplateStringsArray, values: SqlValue[]) {
  const { name, sql } = preparedOf(strings);
  const args = values.map((value) => (value === null || Array.isArray(value) ? value : String(value)));
  const argTypes = values.map((value) => (Array.isArray(value) ? list : scalar));
  return { sql, args, argTypes, [statementName]: name };
}

/** The statements of one adapter queryable (a transaction, or a connected adapter). */
function statementsOn(queryable: Pick<SqlQueryable, 'queryRaw' | 'executeRaw'>): Statements {
  return {
    async query<Row>(strings: TemplateStringsArray, ...values: SqlValue[]): Promise<Row[]> {
      const { columnNames, rows } = await queryable.queryRaw(toQuery(strings, values));
      return rows.map((row) => {
        const named: Record<string, unknown> = {};
        for (let i = 0; i < columnNames.length; i++) named[columnNames[i]!] = row[i];
        return named as Row;
      });
    },
    execute: (strings, ...values) => queryable.executeRaw(toQuery(strings, values)),
  };
}

/**
 * The statements of `adapter` that each commit on their own (adr/0027): one statement,
 * outside any transaction, sent through the commit gate as its COMMIT would be. Without
 * the gate (the bench's layers-off API) each is a plain statement on the pool, which
 * commits on its own just the same.
 */
export function committingStatementsOn(adapter: Pick<SqlQueryable, 'queryRaw' | 'executeRaw'>): Statements {
  if (!isCommittingAdapter(adapter)) return statementsOn(adapter);
  return statementsOn({
    queryRaw: (query) => adapter.queryRawAsCommit(query),
    executeRaw: async (query) => {
      throw new Error(`a statement that is its own commit answers its rows: use query, not execute (${query.sql.slice(0, 40)})`);
    },
  });
}

/**
 * The `Statements` of a Prisma client or transaction client: its public `$queryRaw` and
 * `$executeRaw`, for a function the gate's own commit shares (the same statement as a look).
 */
export function statementsOf(client: Pick<Prisma.TransactionClient, '$queryRaw' | '$executeRaw'>): Statements {
  return {
    query: <Row>(strings: TemplateStringsArray, ...values: SqlValue[]) => client.$queryRaw<Row[]>(strings, ...values),
    execute: (strings, ...values) => client.$executeRaw(strings, ...values),
  };
}

/** A jsonb column as it came: text from the gate's own commit, parsed already through Prisma Client. */
export function parseJsonColumn<T>(value: unknown): T {
  return (typeof value === 'string' ? JSON.parse(value) : value) as T;
}
