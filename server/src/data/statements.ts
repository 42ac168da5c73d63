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
 *
 * The gate's own statements are prepared under a name once per connection (below); with
 * DB_PREPARED_STATEMENTS=unnamed they are sent unnamed: behind a transaction pooler a name
 * prepared on one server connection is missing on the next (adr/0060).
 */
import type { Prisma } from '../generated/prisma/client.ts';

/** What a placeholder may carry: sent as text (bigint and number too), arrays as lists. */
type SqlValue = string | number | bigint | boolean | null | readonly string[];

/** Statements on one connection or pool. */
export interface Statements {
  /** The rows of one statement, keyed by column name. */
  query<Row>(strings: TemplateStringsArray, ...values: SqlValue[]): Promise<Row[]>;
  /** The number of rows one statement changed. */
  execute(strings: TemplateStringsArray, ...values: SqlValue[]): Promise<number>;
}

/** One statement as pg takes it: `$1…$n` placeholders, values as text, and the name it is prepared under (`preparedOf`). */
export interface StatementText {
  readonly name: string;
  readonly text: string;
  readonly values: readonly (string | null | readonly string[])[];
}

/** Sends one statement and answers its rows, keyed by column name. */
export type SendStatement = (statement: StatementText) => Promise<Record<string, unknown>[]>;

/**
 * Each call site's template is one SQL text, prepared once per connection under a name of
 * its own (`tw_1`, `tw_2`, …): PostgreSQL then parses and plans it once, not per send.
 * The names are as many as the call sites (fewer than a hundred), so nothing grows without bound.
 * The text is joined once per call site too, not per statement: a text joined afresh is a
 * string V8 must flatten again wherever it is read (the cancellable client matches its
 * start against the COMMIT and ROLLBACK patterns; adr/0035).
 */
interface Prepared {
  readonly name: string;
  readonly sql: string;
}
const prepared = new WeakMap<TemplateStringsArray, Prepared>();
let named = 0;

/** The name and the `$n` text of a call site's template. */
function preparedOf(strings: TemplateStringsArray): Prepared {
  let known = prepared.get(strings);
  if (!known) {
    let sql = strings[0]!;
    for (let i = 1; i < strings.length; i++) sql += `$${i}${strings[i]}`;
    known = { name: `tw_${++named}`, sql };
    prepared.set(strings, known);
  }
  return known;
}

/** A tagged template as pg's statement: values as text, arrays as lists. */
function toStatement(strings: TemplateStringsArray, values: SqlValue[]): StatementText {
  const { name, sql } = preparedOf(strings);
  return { name, text: sql, values: values.map((value) => (value === null || Array.isArray(value) ? value : String(value))) as StatementText['values'] };
}

/**
 * The statement that is its own commit (adr/0027): one statement, outside any transaction,
 * handed to `send` (the commit gate's own commit, or a plain statement on the pool in the
 * bench's layers-off API, which commits on its own just the same). Such a statement answers
 * its rows: `execute` is refused. Made once per attempt: a second statement is refused
 * too, since it would commit apart from the first.
 */
export function committingStatement(send: SendStatement): Statements {
  let sent = false;
  return {
    query<Row>(strings: TemplateStringsArray, ...values: SqlValue[]) {
      if (sent) throw new Error('a statement that is its own commit is one statement: a second would commit apart from it');
      sent = true;
      return send(toStatement(strings, values)) as Promise<Row[]>;
    },
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
