/**
 * The statements of the bank's own commits (adr/0027, adr/0075): a statement that is its own
 * commit (`money_send`, `open_account`) is sent by the commit gate with pg's own API on a
 * connection it takes itself (commitGate/ownCommit.ts), beside Prisma Client, so its SQL
 * comes here as a tagged template. Every other statement is Prisma Client's own call
 * (`$queryRaw`, `$executeRaw` on the client the data layer hands out, adr/0069);
 * `statementsOf(client)` gives a function shared by both paths (the money statement's
 * check-only look) that client's calls in the same shape.
 *
 * On the gate's own path, values are sent as text (every placeholder is cast in the SQL,
 * `${id}::uuid`) and every column comes back as PostgreSQL's text (PGlite's parsed, jsonb
 * included); through Prisma Client, as Prisma gives them (jsonb parsed, int8 as bigint,
 * timestamptz as Date). A reader of both casts what it needs in the SQL, and
 * `parseJsonColumn` reads a jsonb column either way.
 */
import type { Prisma } from '../generated/prisma/client.ts';
import { preparedOf } from './preparedStatements.ts';

/** What a placeholder may carry: sent as text (bigint and number too), arrays as lists. */
type SqlValue = string | number | bigint | boolean | null | readonly string[];

/** Statements on one connection or pool. */
export interface Statements {
  /** The rows of one statement, keyed by column name. */
  query<Row>(strings: TemplateStringsArray, ...values: SqlValue[]): Promise<Row[]>;
  /** The number of rows one statement changed. */
  execute(strings: TemplateStringsArray, ...values: SqlValue[]): Promise<number>;
}

/** One statement as pg takes it: `$1…$n` placeholders, values as text, and the name it is prepared under (preparedStatements.ts). */
export interface StatementText {
  readonly name: string;
  readonly text: string;
  readonly values: readonly (string | null | readonly string[])[];
}

/** Sends one statement and answers its rows, keyed by column name. */
export type SendStatement = (statement: StatementText) => Promise<Record<string, unknown>[]>;

/** A tagged template as pg's statement: values as text, arrays as lists. */
function toStatement(strings: TemplateStringsArray, values: SqlValue[]): StatementText {
  const { name, sql } = preparedOf(strings);
  return { name, text: sql, values: values.map((value) => (value === null || Array.isArray(value) ? value : String(value))) as StatementText['values'] };
}

/**
 * The statements that each commit on their own (adr/0027): one statement, outside any
 * transaction, handed to `send` (the commit gate's own commit, or a plain statement on the
 * pool in the bench's layers-off API, which commits on its own just the same). Such a
 * statement answers its rows: `execute` is refused.
 */
export function committingStatements(send: SendStatement): Statements {
  return {
    query: <Row>(strings: TemplateStringsArray, ...values: SqlValue[]) => send(toStatement(strings, values)) as Promise<Row[]>,
    execute: async (strings) => {
      throw new Error(`a statement that is its own commit answers its rows: use query, not execute (${strings[0]!.slice(0, 40)})`);
    },
  };
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

/** A jsonb column as it came: text from the gate's own commit on PostgreSQL, parsed already through Prisma Client or PGlite. */
export function parseJsonColumn<T>(value: unknown): T {
  return (typeof value === 'string' ? JSON.parse(value) : value) as T;
}
