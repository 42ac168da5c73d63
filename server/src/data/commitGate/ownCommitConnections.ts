/**
 * Where the gate's statements that are their own commits run (adr/0027, adr/0055): on a
 * connection of our own pg pool, the one under the wrapped adapter, sent with pg's public
 * API; on PGlite, which has no pool, on the wrapped adapter itself.
 */
import type pg from 'pg';
import { ColumnTypeEnum, type SqlDriverAdapter, type SqlQuery, type SqlResultSet } from '@prisma/driver-adapter-utils';
import { preparedNameOf } from '../preparedStatements.ts';

/** What pg's client of our pool (cancellableClient.ts) says of the last error the server sent it. */
interface HeardErrors {
  processID: number | null;
  /** The SQLSTATE and severity of the server's error for the statement in flight, if any. */
  readonly statementFailure?: { code?: string; severity?: string } | undefined;
}

/** A connection of our pool (cancellableClient.ts), as the gate uses it while it holds it. */
export type HeldClient = pg.PoolClient & HeardErrors & {
  cancelInFlight(): boolean;
  timedByGate: boolean;
};

/**
 * The server answered the statement with an error that ended only the statement: an
 * autocommit statement that failed so rolled back, and its connection lives on. Not a
 * connection's end (08, 57P01 to 57P05 or a FATAL), and not an internal error (XX).
 */
export function rolledBackByItsError(client: HeardErrors): boolean {
  const failure = client.statementFailure;
  if (!failure?.code) return false;
  if (failure.severity === 'FATAL' || failure.severity === 'PANIC') return false;
  return !/^(08|57P0|XX)/.test(failure.code);
}

/** Where a gated adapter's statements that are their own commits run. */
export interface Connections {
  /** The adapter the gate wraps: the statement's connection on PGlite, which has no pool. */
  readonly inner: SqlDriverAdapter;
  /** The pg pool under `inner` (the one `openDatabase` made), whose connections the gate takes itself. */
  readonly pool: pg.Pool | undefined;
}

/** Every column as PostgreSQL's text: the direct statements' row shape (statements.ts), without adapter-pg's conversions. */
const asText = { getTypeParser: () => (value: string) => value };

/**
 * Sends `query` on `client` with pg's own API, prepared under its direct statement's name
 * (preparedStatements.ts) when `named`, else unnamed (DB_PREPARED_STATEMENTS), and calls `done` once with its rows as the adapter's result set
 * (every column text) or with pg's error (a `DatabaseError` with its SQLSTATE, which the
 * classifier reads). pg's callback form: no promise of its own (adr/0030).
 */
export function queryOn(client: pg.PoolClient, query: SqlQuery, named: boolean, done: (error: Error | undefined, rows?: SqlResultSet) => void): void {
  const name = named ? preparedNameOf(query) : undefined;
  const config: pg.QueryArrayConfig = { text: query.sql, values: query.args as unknown[], rowMode: 'array', types: asText, ...(name ? { name } : {}) };
  client.query(config, (error: Error | undefined, result: pg.QueryArrayResult) => {
    if (error) return done(error);
    done(undefined, { columnNames: result.fields.map((field) => field.name), columnTypes: result.fields.map(() => ColumnTypeEnum.Text), rows: result.rows });
  });
}
