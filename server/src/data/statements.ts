/**
 * Direct statements (adr/0021, adr/0055): the one way the server writes SQL, sent straight
 * to the driver adapter under Prisma. Prisma's client layer (its query plan, its
 * serialisation, a promise chain per statement) cost more CPU than the money path's
 * statements themselves, and one style is easier to read than three.
 *
 * A statement here still passes every layer under Prisma's client: the commit gate (no
 * statement after the request's signal fired), the cancellable client (a hung statement
 * is cancelled at the database), the pool behind the circuit breaker; and inside
 * `runInTransaction` it runs on the transaction's own connection, under the one retry
 * policy. Only the client's conveniences are gone, so:
 *
 * - values are sent as text and every placeholder is cast in the SQL (`${id}::uuid`);
 * - rows come back as the adapter gives them: `int8` and `jsonb` as text (cast int8 to
 *   `::text` and parse; `parseJsonColumn` for jsonb), `timestamptz` as an ISO string;
 *   a statement that is its own commit answers every column as PostgreSQL's text;
 * - errors are the adapter's `DriverAdapterError` (pg's `DatabaseError` from a statement
 *   that is its own commit); the classifier reads both.
 *
 * `sqlOf(client)` answers the statements of a transaction client that `runInTransaction`
 * handed out, of the primary's client (`data.db`, `data.read`'s and `data.write`'s: one
 * statement outside a transaction, on the pool), or of `readDb()`'s (read-only, each
 * statement retried as a read).
 */
import type { ArgType, SqlDriverAdapter, SqlDriverAdapterFactory, SqlQuery, SqlQueryable } from '@prisma/driver-adapter-utils';
import { currentTransactionAttempt } from './retry/index.ts';
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
export function statementsOn(queryable: Pick<SqlQueryable, 'queryRaw' | 'executeRaw'>): Statements {
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

/** A jsonb column as the adapter gave it (text on both adapters), parsed. */
export function parseJsonColumn<T>(value: unknown): T {
  return (typeof value === 'string' ? JSON.parse(value) : value) as T;
}

const registered = new WeakMap<object, Statements>();

/** Records that `client` (a transaction client or a PrismaClient) runs its direct statements on `statements`. */
export function registerStatements(client: object, statements: Statements): void {
  registered.set(client, statements);
}

/** The direct statements of a client `runInTransaction` or the data layer handed out; throws for any other. */
export function sqlOf(client: object): Statements {
  const statements = registered.get(client);
  if (!statements) throw new Error('direct statements exist only on the data layer\'s primary client and its transactions');
  return statements;
}

/**
 * Wraps the outermost adapter factory of the primary: each transaction it starts is
 * noted on the current `runInTransaction` attempt, so the attempt's direct statements
 * run on that transaction's connection. The factory's own adapter answers `connect()`
 * for the statements outside a transaction.
 */
export function noteTransactionsOnAttempts(inner: SqlDriverAdapterFactory): SqlDriverAdapterFactory {
  const wrap = (adapter: SqlDriverAdapter): SqlDriverAdapter => ({
    provider: adapter.provider,
    adapterName: adapter.adapterName,
    queryRaw: (query) => adapter.queryRaw(query),
    executeRaw: (query) => adapter.executeRaw(query),
    executeScript: (script) => adapter.executeScript(script),
    async startTransaction(isolationLevel) {
      const transaction = await adapter.startTransaction(isolationLevel);
      const attempt = currentTransactionAttempt();
      if (attempt) attempt.transaction = transaction;
      return transaction;
    },
    getConnectionInfo: adapter.getConnectionInfo?.bind(adapter),
    dispose: () => adapter.dispose(),
    // The commit gate's statement that is its own commit (adr/0027), where the gate is.
    ...(isCommittingAdapter(adapter) ? { queryRawAsCommit: (query: SqlQuery) => adapter.queryRawAsCommit(query) } : {}),
  });
  return {
    provider: inner.provider,
    adapterName: inner.adapterName,
    connect: async () => wrap(await inner.connect()),
  };
}
