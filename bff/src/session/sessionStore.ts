/**
 * Where sessions live. With BFF_SESSION_DATABASE_URL: PostgreSQL through connect-pg-simple
 * (table `bff_session`, created if missing), shared by every BFF replica and surviving
 * restarts; each round trip bounded by the session-store budget (5 s), so a hung store
 * answers 503 instead of hanging. Without it: an in-memory store, allowed only for the
 * embedded one-command default (config.ts refuses it otherwise) and logged as such.
 *
 * Either keeps the API's tokens sealed under BFF_TOKEN_KEY (sealedStore.ts, adr/0045).
 * Neither store is "touched" on a read: the inactivity timer slides only when a session
 * is saved (keep-alive and proxied requests), never because `GET /bff/session` looked.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import connectPgSimple from 'connect-pg-simple';
import session, { type Store } from 'express-session';
import pg from 'pg';
import type { Logger } from 'pino';
import { connectToListedHost, hostSelector, parseHostList, roleOf, type HostRole, type HostSelector } from '@tidewater/contract/hostList';
import type { BffConfig } from '../config.ts';
import { openedSession, sealingStore } from './sealedStore.ts';

/** Told the refresh token of each session the store pruned, to revoke it at the API. */
export type OnPruned = (refreshToken: string) => void;

/** A session store and what the BFF needs around it. */
export interface SessionStore {
  readonly store: Store;
  readonly kind: 'postgres' | 'memory';
  /** Resolves when the store answers within `timeoutMs`, rejects otherwise. */
  ping(timeoutMs: number): Promise<void>;
  close(): Promise<void>;
}

/** Express-session calls `touch` on every unmodified read; without it, only saves slide. */
function withoutTouch(store: Store): Store {
  Object.defineProperty(store, 'touch', { value: undefined, writable: true, configurable: true });
  return store;
}

/** `promise`, or a rejection naming `what` once `timeoutMs` has passed; the timer stops when it settles. */
function withTimeout<T>(promise: Promise<T>, timeoutMs: number, what: string): Promise<T> {
  const stopTimer = new AbortController();
  const timedOut = sleep(timeoutMs, undefined, { signal: stopTimer.signal }).then((): never => {
    throw new Error(`${what} did not answer within ${timeoutMs} ms`);
  });
  // Stopping the timer rejects `timedOut` with an AbortError, which the race has already handled.
  return Promise.race([promise, timedOut]).finally(() => stopTimer.abort());
}

/** unique_violation (on pg_type), duplicate_table, duplicate_object: someone else created it. */
function lostCreateRace(error: unknown): boolean {
  return ['23505', '42P07', '42710'].includes(String((error as { code?: string } | undefined)?.code));
}

/** One login that reads a host's role (the host list's probe), bounded by `timeoutMs`. */
function roleLogin(url: string, timeoutMs: number): Promise<HostRole> {
  return roleOf(new pg.Client({ connectionString: url, connectionTimeoutMillis: timeoutMs, query_timeout: timeoutMs }));
}

/** The PostgreSQL store; resolves once its table exists (a store that could not create it never recovers). */
async function postgresStore(config: BffConfig, logger: Logger, onPruned: OnPruned): Promise<SessionStore> {
  const budget = config.sessionStoreTimeoutMs;
  const onConnectionError = (error: Error) => logger.warn({ err: error }, 'session store connection lost');
  /**
   * Every connection listens for its own errors for its whole life, checked out or idle
   * (adr/0011): pg-pool's listener covers an idle one only, and an 'error' event with no
   * listener ends the process. A failed connection is then unusable and dropped on release.
   */
  // Several hosts in the URL (adr/0019): each new connection goes to the host a probe chose
  // (`target_session_attrs=read-write` for sessions), so the store follows a failover.
  const list = parseHostList(config.sessionDatabaseUrl ?? '');
  const selector: HostSelector | undefined = list && hostSelector(list, { login: (url) => roleLogin(url, budget) });
  class ListeningClient extends pg.Client {
    constructor(settings?: pg.ClientConfig) {
      super(settings);
      this.on('error', onConnectionError);
    }

    override connect(...args: unknown[]): never {
      const superConnect = (...forwarded: unknown[]) => (super.connect as (...a: unknown[]) => never)(...forwarded);
      if (!selector) return superConnect(...args);
      const steered = this as unknown as Parameters<typeof connectToListedHost>[0];
      const connected = connectToListedHost(steered, selector, () => superConnect() as Promise<void>).then(() => this);
      const callback = args[0] as ((error: Error | undefined) => void) | undefined;
      if (!callback) return connected as never;
      connected.then(() => callback(undefined), (error: Error) => callback(error));
      return undefined as never;
    }
  }
  const pool = new pg.Pool({
    Client: ListeningClient,
    connectionString: list ? list.urlFor(list.hosts[0]!) : config.sessionDatabaseUrl,
    max: 10,
    connectionTimeoutMillis: budget,
    query_timeout: budget,
    statement_timeout: budget,
    idleTimeoutMillis: 30_000,
  });
  // pg-pool re-emits an idle client's error here after dropping it; the client's own listener logged it.
  pool.on('error', () => {});
  const PgStore = connectPgSimple(session);
  const errorLog = (...args: unknown[]) =>
    logger.error({ detail: args.map(String).join(' ') }, 'session store error');
  let store: InstanceType<typeof PgStore> | undefined;
  // connect-pg-simple checks for its table, then creates it: two replicas starting together
  // can both try, and the loser's store keeps that failure forever. So a store whose first
  // query lost that race is dropped, and a new one finds the table.
  for (let attempt = 1; !store; attempt++) {
    const candidate = new PgStore({ pool, tableName: 'bff_session', createTableIfMissing: true, errorLog, pruneSessionInterval: false });
    const probe = new Promise<void>((resolve, reject) =>
      candidate.get('startup-probe', (error) => (error ? reject(error) : resolve())),
    );
    try {
      await withTimeout(probe, budget * 2, 'the session store');
      store = candidate;
    } catch (error) {
      candidate.close();
      if (attempt >= 3 || !lostCreateRace(error)) {
        await pool.end().catch(() => undefined);
        throw error;
      }
      logger.info('another BFF created the session table at the same moment; trying again');
    }
  }
  const opened = store;
  // Our own pruning, not connect-pg-simple's: a lapsed session's refresh token is revoked, not left live at the API.
  const prune = setInterval(() => {
    pool
      .query<{ sess: Record<string, unknown> }>('DELETE FROM bff_session WHERE expire < now() RETURNING sess')
      .then(({ rows }) => {
        for (const { sess } of rows) {
          const auth = openedSession(config.tokenKeys, sess as never).auth;
          if (auth) onPruned(auth.refreshToken);
        }
      })
      .catch((error: unknown) => logger.warn({ err: error }, 'pruning lapsed sessions failed; the next round tries again'));
  }, config.sessionPruneMs);
  prune.unref();
  return {
    store: sealingStore(withoutTouch(opened), config.tokenKeys),
    kind: 'postgres',
    ping: (timeoutMs) =>
      withTimeout(
        pool.query('SELECT 1').then(() => undefined),
        timeoutMs,
        'the session store',
      ),
    close: async () => {
      clearInterval(prune);
      opened.close();
      await pool.end().catch(() => undefined);
    },
  };
}

/** The in-memory store, pruned of expired sessions every minute (MemoryStore only drops them when read). */
function memoryStore(config: BffConfig): SessionStore {
  const store = new session.MemoryStore();
  const prune = setInterval(() => store.all(() => undefined), 60_000);
  prune.unref();
  return {
    store: sealingStore(withoutTouch(store), config.tokenKeys),
    kind: 'memory',
    ping: async () => undefined,
    close: async () => clearInterval(prune),
  };
}

/** Opens the configured session store. */
export async function openSessionStore(config: BffConfig, logger: Logger, onPruned: OnPruned = () => {}): Promise<SessionStore> {
  if (config.sessionDatabaseUrl) {
    const opened = await postgresStore(config, logger, onPruned);
    logger.info('sessions are kept in PostgreSQL (table bff_session)');
    return opened;
  }
  logger.warn(
    'sessions are kept in memory: fine for the embedded one-command default only; they end when this process ends ' +
      'and are not shared by replicas. Set BFF_SESSION_DATABASE_URL (and SESSION_SECRET, BFF_TOKEN_KEY) for anything else.',
  );
  return memoryStore(config);
}
