/**
 * Where the gate's statements that are their own commits run (adr/0027): the pg pool under
 * the wrapped adapter (none on PGlite), and that adapter bound to each pool connection, made
 * once per connection and not per statement.
 */
import pg from 'pg';
import type { SqlDriverAdapter } from '@prisma/driver-adapter-utils';

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

/** A gated adapter's pool and its adapter on one of the pool's connections. */
export interface Connections {
  readonly inner: SqlDriverAdapter;
  readonly pool: pg.Pool | undefined;
  on(client: pg.PoolClient): SqlDriverAdapter;
}

/**
 * The pool and the per-connection adapters of `inner`. Both lean on adapter-pg beyond
 * Prisma's public interface (adr/0052): its `underlyingDriver()` answers the pool, and its
 * adapter reads its connection from `this.client`, so an adapter whose prototype is
 * `inner` with its own `client` runs on that connection, with adapter-pg's argument and
 * row conversions.
 */
export function connectionsOf(inner: SqlDriverAdapter): Connections {
  const views = new WeakMap<pg.PoolClient, SqlDriverAdapter>();
  const driver = (inner as { underlyingDriver?: () => unknown }).underlyingDriver?.();
  return {
    inner,
    pool: driver instanceof pg.Pool ? driver : undefined,
    on(client) {
      let view = views.get(client);
      if (!view) {
        view = Object.create(inner, { client: { value: client } }) as SqlDriverAdapter;
        views.set(client, view);
      }
      return view;
    },
  };
}
