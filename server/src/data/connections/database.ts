/**
 * Opens the bank's database: the embedded PGlite when no DATABASE_URL is set (nobody
 * needs a server to try the bank), else PostgreSQL through `@prisma/adapter-pg` with the
 * pool limits of the config table. Every connection passes the connection layers it is
 * given (connectionLayers.ts): the commit gate in each pool's client (or in the PGlite engine),
 * and the circuit breaker. Prisma Client sits on top, over `@prisma/adapter-pg` on those pools
 * (adr/0075).
 *
 * Three clients: `prisma` (the primary, read-write), `readOnlyPrisma` (the read replica
 * when DATABASE_REPLICA_URL is set, else the primary's read-only pool) and
 * `primaryReadOnlyPrisma` (a small read-only pool on the primary, for the reads of a
 * request or user that just wrote). Read-only connections are read-only sessions
 * (`default_transaction_read_only`; read-only transactions on PGlite), so a write that
 * sneaks onto one fails on a developer's machine too, not only where a replica exists.
 * Those sessions' guards come from the login or from the role (DB_SESSION_SETTINGS), and are
 * checked at start either way (sessionSettings.ts, adr/0060).
 */
import { mkdirSync } from 'node:fs';
import { PGlite } from '@electric-sql/pglite';
import { PrismaPg } from '@prisma/adapter-pg';
import { PrismaPGlite } from 'pglite-prisma-adapter';
import type { Logger } from 'pino';
import { PrismaClient } from '../../generated/prisma/client.ts';
import type { ServerConfig } from '../../config.ts';
import pg from 'pg';
import { hostSelector, parseHostList, roleOf, type HostRole, type HostSelector } from '@tidewater/contract/hostList';
import type { CommitGateOptions, OwnCommitTarget, TransactionGate } from '../commitGate/index.ts';
import { resilientConnections, type ConnectionLayers, type ServerPools } from './connectionLayers.ts';
import { migrateUp, pgliteMigrationClient } from './migrate.ts';
import { pgliteReadOnly } from './pgliteReadOnly.ts';
import type { CircuitBreaker } from './circuitBreaker.ts';
import { ReplicaFallbackPool } from './replicaFallback.ts';
import { watchBreaker, watchPool } from '../../metrics.ts';
import type { SendStatement } from '../statements.ts';
import { checkSessionSettings, startupSettings } from './sessionSettings.ts';
import type { DatabaseKind } from '../databaseKind.ts';

/** An open database. */
export interface Database {
  readonly kind: DatabaseKind;
  /** Where the commit gate takes a transaction's end above the database (PGlite, commitGate/pgliteGate.ts); none where the pool's client sees the COMMIT. */
  readonly transactionGate?: TransactionGate;
  /** The primary, read-write. */
  readonly prisma: PrismaClient;
  /** Sends a direct statement on the primary that is its own commit, through the commit gate with pg's own API (adr/0027, adr/0075). */
  readonly sendOwnCommit: SendStatement;
  /** Read-only: the replica (falling back to the primary when configured), else `primaryReadOnlyPrisma`. */
  readonly readOnlyPrisma: PrismaClient;
  /** Read-only on the primary: fresh reads that can never write (read-your-writes). */
  readonly primaryReadOnlyPrisma: PrismaClient;
  /** True when reads can go to a replica. */
  readonly hasReplica: boolean;
  /** The pg pools, for statistics (empty for PGlite). */
  readonly pools: readonly pg.Pool[];
  /** One circuit breaker per server (primary, replica); empty for PGlite, which is never down. */
  readonly breakers: readonly CircuitBreaker[];
  /** Applies pending migrations; answers their names. */
  migrate(): Promise<string[]>;
  /** Refuses (a ConfigError) when a pool's sessions miss a guard: its timeouts, or read-only on a read pool (sessionSettings.ts). */
  checkSessions(): Promise<void>;
  /** Closes every client and engine (PGlite keeps timers alive until closed). */
  close(): Promise<void>;
}

/** What opening a database reads from the config table. */
export type DatabaseConfig = Pick<
  ServerConfig,
  | 'databaseUrl'
  | 'databaseReplicaUrl'
  | 'replicaFallbackToPrimary'
  | 'dataDir'
  | 'dbPoolMax'
  | 'dbPoolWaitMs'
  | 'dbConnectTimeoutMs'
  | 'dbCommitTimeoutMs'
  | 'cancelAcknowledgeMs'
  | 'dbStatementTimeoutMs'
  | 'requestDeadlineMs'
  | 'dbReadinessProbeMs'
  | 'databaseReadOnlyUrl'
  | 'dbPreparedStatements'
  | 'dbSessionSettings'
>;

/**
 * One URL's servers: its own when it names one host, else a selector over its host list
 * (adr/0019) that every pool, the readiness probe and the migration on it share.
 */
interface Servers {
  /** A URL pg accepts: the URL itself, or its first host's. */
  readonly url: string;
  readonly selector?: HostSelector;
  /** A URL of the server to use now (the migration's). */
  current(): Promise<string>;
}

/** One login (bounded by the connect timeout) that reads a host's role. */
function roleLogin(url: string, connectTimeoutMs: number): Promise<HostRole> {
  return roleOf(new pg.Client({ connectionString: url, connectionTimeoutMillis: connectTimeoutMs, query_timeout: connectTimeoutMs }));
}

/** The servers of `url`; throws at start for a target_session_attrs or load_balance_hosts libpq would refuse. */
function serversOf(url: string, connectTimeoutMs: number): Servers {
  const list = parseHostList(url);
  if (!list) return { url, current: () => Promise.resolve(url) };
  const selector = hostSelector(list, { login: (hostUrl) => roleLogin(hostUrl, connectTimeoutMs) });
  return { url: list.urlFor(list.hosts[0]!), selector, current: async () => list.urlFor(await selector.pick()) };
}

/** The pg pool settings from the config table (one place, also used by tests). */
function poolConfig(url: string, config: DatabaseConfig, Client: typeof pg.Client, options: { readOnly?: boolean; max?: number } = {}): pg.PoolConfig {
  return {
    connectionString: url,
    max: options.max ?? config.dbPoolMax,
    // pg's connectionTimeoutMillis bounds both a new login and the wait for a pooled client.
    connectionTimeoutMillis: Math.min(config.dbPoolWaitMs, config.dbConnectTimeoutMs),
    idleTimeoutMillis: 30_000,
    keepAlive: true,
    Client,
    ...startupSettings(url, config, options.readOnly === true),
  };
}

/** The circuit breaker's probe: one login of its own (bounded by the connect timeout) and `SELECT 1`; on a host list, a probe of every host. */
async function probeLogin(servers: Servers, connectTimeoutMs: number): Promise<void> {
  if (servers.selector) {
    await servers.selector.probe();
    return;
  }
  const url = servers.url;
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: connectTimeoutMs, query_timeout: connectTimeoutMs });
  client.on('error', () => {}); // a probe that fails says so by rejecting
  try {
    await client.connect();
    await client.query('SELECT 1');
  } finally {
    await client.end().catch(() => {});
  }
}

/** The commit gate as `openDatabase` applies it: its options (every pool's client reads them), and the statements that are their own commits on a target. */
interface Gate {
  readonly options: CommitGateOptions;
  ownCommit(target: OwnCommitTarget): SendStatement;
}

/** Options beyond the config table. */
export interface OpenOptions {
  logger?: Logger;
  /** Test seams of the commit gate; its timeout is always the config's connect timeout. */
  commitGate?: Omit<CommitGateOptions, 'commitTimeoutMs' | 'cancelAcknowledgeMs' | 'preparedStatements'>;
  /** Default: the production layers (connectionLayers.ts); the bench's layers-off API passes through ones. */
  layers?: ConnectionLayers;
}

/** The small read-only pool on the primary: reads are cheap, and its logins count against the primary's limit. */
const primaryReadOnlyPoolMax = (config: DatabaseConfig) => Math.max(2, Math.floor(config.dbPoolMax / 3));

/** Opens PostgreSQL when a URL is given, else the embedded PGlite in `dataDir`. */
export async function openDatabase(config: DatabaseConfig, options: OpenOptions = {}): Promise<Database> {
  const layers = options.layers ?? resilientConnections;
  const gateOptions: CommitGateOptions = {
    ...options.commitGate,
    commitTimeoutMs: config.dbCommitTimeoutMs,
    cancelAcknowledgeMs: config.cancelAcknowledgeMs,
    preparedStatements: config.dbPreparedStatements === 'unnamed' ? 'unnamed' : 'named',
  };
  const gate: Gate = {
    options: gateOptions,
    ownCommit: (target) => layers.ownCommit(target, gateOptions),
  };
  if (config.databaseUrl) return openPostgres(config.databaseUrl, config, layers, gate, options.logger);

  if (config.dataDir !== 'memory://') mkdirSync(config.dataDir, { recursive: true });
  const pglite = new PGlite(config.dataDir);
  await pglite.waitReady;
  const primary = layers.pglite(pglite);
  const prisma = new PrismaClient({ adapter: new PrismaPGlite(primary.engine) });
  const readOnlyPrisma = new PrismaClient({ adapter: new PrismaPGlite(layers.pglite(pgliteReadOnly(pglite)).engine) });
  return {
    kind: 'pglite',
    ...(primary.transactionGate ? { transactionGate: primary.transactionGate } : {}),
    prisma,
    sendOwnCommit: gate.ownCommit({ pglite }),
    readOnlyPrisma,
    primaryReadOnlyPrisma: readOnlyPrisma,
    hasReplica: false,
    pools: [],
    breakers: [],
    migrate: () => migrateUp({ dbClient: pgliteMigrationClient(pglite) }),
    // In process: the read-only client is read-only by construction, and no statement runs away from a request's deadline there.
    checkSessions: async () => {},
    close: async () => {
      await Promise.all([prisma.$disconnect(), readOnlyPrisma.$disconnect()]);
      await pglite.close();
    },
  };
}

async function openPostgres(
  url: string,
  config: DatabaseConfig,
  layers: ConnectionLayers,
  gate: Gate,
  logger: Logger | undefined,
): Promise<Database> {
  const onConnectionError = (error: Error) => logger?.warn({ err: error }, 'a database connection failed; it will be discarded');
  const serverOf = (name: string, servers: Servers) =>
    layers.server({ name, probe: () => probeLogin(servers, config.dbConnectTimeoutMs), intervalMs: config.dbReadinessProbeMs, logger });
  const pool = (servers: Servers, server: ServerPools, poolOptions: { readOnly?: boolean; max?: number } = {}) => {
    const created = server.pool({
      ...poolConfig(servers.url, config, layers.Client, poolOptions),
      onConnectionError,
      commitGate: gate.options,
      ...(servers.selector ? { hostSelector: servers.selector } : {}),
    });
    // pg-pool re-emits an idle client's error here after dropping it; the client's own listener logged it.
    created.on('error', () => {});
    return created;
  };
  const primary = serversOf(url, config.dbConnectTimeoutMs);
  const replicaServers = config.databaseReplicaUrl ? serversOf(config.databaseReplicaUrl, config.dbConnectTimeoutMs) : undefined;
  const primaryServer = serverOf('primary', primary);
  const replicaServer = replicaServers ? serverOf('replica', replicaServers) : undefined;
  const breakers = [primaryServer.breaker, replicaServer?.breaker].filter((breaker): breaker is CircuitBreaker => breaker !== undefined);
  const primaryPool = pool(primary, primaryServer);
  const readOnlyServers = config.databaseReadOnlyUrl ? serversOf(config.databaseReadOnlyUrl, config.dbConnectTimeoutMs) : primary;
  const primaryReadOnlyPool = pool(readOnlyServers, primaryServer, { readOnly: true, max: primaryReadOnlyPoolMax(config) });
  const replicaPool = replicaServers && replicaServer ? pool(replicaServers, replicaServer, { readOnly: true }) : undefined;
  const pools = [primaryPool, primaryReadOnlyPool, ...(replicaPool ? [replicaPool] : [])];
  const unwatch = [
    ...breakers.map((breaker) => watchBreaker(breaker)),
    watchPool('primary', primaryPool),
    watchPool('primary_read_only', primaryReadOnlyPool),
    ...(replicaPool ? [watchPool('replica', replicaPool)] : []),
  ];

  const replicaUnchecked = (error: unknown) =>
    logger?.warn({ err: error }, "the replica did not answer at start: its sessions' guards were not checked (its startup parameters or its roles set them)");
  const prisma = new PrismaClient({ adapter: new PrismaPg(primaryPool) });
  const primaryReadOnlyPrisma = new PrismaClient({ adapter: new PrismaPg(primaryReadOnlyPool) });
  const readPool = replicaPool && config.replicaFallbackToPrimary && logger ? new ReplicaFallbackPool(replicaPool, primaryReadOnlyPool, logger) : replicaPool;
  const readOnlyPrisma = readPool ? new PrismaClient({ adapter: new PrismaPg(readPool) }) : primaryReadOnlyPrisma;
  return {
    kind: 'postgres',
    prisma,
    // Prepared once per connection unless a pooler moves connections under them (DB_PREPARED_STATEMENTS=unnamed).
    sendOwnCommit: gate.ownCommit({ pool: primaryPool }),
    readOnlyPrisma,
    primaryReadOnlyPrisma,
    hasReplica: replicaPool !== undefined,
    pools,
    breakers,
    migrate: async () => migrateUp({ databaseUrl: await primary.current() }),
    checkSessions: () =>
      checkSessionSettings(
        [
          { pool: primaryPool, urlName: 'DATABASE_URL', readOnly: false },
          { pool: primaryReadOnlyPool, urlName: config.databaseReadOnlyUrl ? 'DATABASE_READ_ONLY_URL' : 'DATABASE_URL (read-only pool; set DATABASE_READ_ONLY_URL)', readOnly: true },
          ...(replicaPool ? [{ pool: replicaPool, urlName: 'DATABASE_REPLICA_URL', readOnly: true, unreachable: replicaUnchecked }] : []),
        ],
        config,
      ),
    close: async () => {
      for (const breaker of breakers) breaker.stop();
      for (const stopWatching of unwatch) stopWatching();
      await Promise.all([...new Set([prisma, readOnlyPrisma, primaryReadOnlyPrisma])].map((client) => client.$disconnect()));
      await Promise.all(pools.map((p) => p.end().catch(() => {})));
    },
  };
}
