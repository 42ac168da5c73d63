/**
 * Where the gate's statements that are their own commits run (adr/0027, adr/0055, adr/0075):
 * on a connection of the primary's pg pool, sent with pg's public API; on PGlite, which has no
 * pool, on the embedded database itself. Neither goes through Prisma's driver adapter: the
 * gate holds the connection from its take to its answer and cancels or times it itself.
 */
import type { PGlite } from '@electric-sql/pglite';
import type pg from 'pg';
import type { StatementText } from '../statements.ts';

/** Where statements that are their own commits run: the primary's pool, or PGlite. */
export type OwnCommitTarget = { readonly pool: pg.Pool } | { readonly pglite: PGlite };

/** Rows keyed by column name. */
export type Rows = Record<string, unknown>[];

/** What pg's client of our pool (cancellableClient.ts) says of the last error the server sent it. */
interface HeardErrors {
  processID: number | null;
  /** The SQLSTATE and severity of the server's error for the statement in flight, if any. */
  readonly statementFailure?: { code?: string; severity?: string } | undefined;
}

/** A connection of our pool (cancellableClient.ts), as the gate uses it while it holds it. */
export type HeldClient = pg.PoolClient &
  HeardErrors & {
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

/** Every column as PostgreSQL's text: the direct statements' row shape (statements.ts). */
const asText = { getTypeParser: () => (value: string) => value };

/** pg's statement for `statement`: prepared under its name when `named`, else unnamed (DB_PREPARED_STATEMENTS). */
function pgStatement(statement: StatementText, named: boolean): pg.QueryConfig {
  return { text: statement.text, values: statement.values as unknown[], types: asText, ...(named ? { name: statement.name } : {}) };
}

/**
 * Sends `statement` on `client` with pg's own API and calls `done` once with its rows (every
 * column text) or with pg's error (a `DatabaseError` with its SQLSTATE, which the classifier
 * reads). pg's callback form: no promise of its own (adr/0030).
 */
export function queryOn(client: pg.PoolClient, statement: StatementText, named: boolean, done: (error: Error | undefined, rows?: Rows) => void): void {
  client.query(pgStatement(statement, named), (error: Error | undefined, result: pg.QueryResult<Record<string, unknown>>) => (error ? done(error) : done(undefined, result.rows)));
}

/** Sends `statement` to PGlite, in process: its rows as PGlite parses them. */
export async function queryOnPglite(pglite: PGlite, statement: StatementText): Promise<Rows> {
  return (await pglite.query<Record<string, unknown>>(statement.text, statement.values as unknown[])).rows;
}

/**
 * A plain statement on `target`, ungated: how the bench's layers-off API sends a statement
 * that is its own commit (it commits on its own just the same).
 */
export function plainStatementOn(target: OwnCommitTarget, named: boolean) {
  return async (statement: StatementText): Promise<Rows> =>
    'pool' in target ? (await target.pool.query<Record<string, unknown>>(pgStatement(statement, named))).rows : queryOnPglite(target.pglite, statement);
}
