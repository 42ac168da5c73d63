/**
 * Opens the bank's database: the embedded PGlite when no DATABASE_URL is set (nobody
 * needs a server to try the bank), else PostgreSQL through `@prisma/adapter-pg` with the
 * pool limits of the config table. Prisma talks to either through its driver adapter.
 */
import { mkdirSync } from 'node:fs';
import { PGlite } from '@electric-sql/pglite';
import { PrismaPg } from '@prisma/adapter-pg';
import { PrismaPGlite } from 'pglite-prisma-adapter';
import type { SqlDriverAdapterFactory } from '@prisma/driver-adapter-utils';
import { PrismaClient } from '../generated/prisma/client.ts';
import type { ServerConfig } from '../config.ts';
import { migrateUp, pgliteMigrationClient } from './migrate.ts';

/** Which engine is underneath: the retry policy differs (PGlite is never retried). */
export type DatabaseKind = 'pglite' | 'postgres';

/** An open database: the Prisma client, its kind, and how to close it. */
export interface Database {
  readonly prisma: PrismaClient;
  readonly kind: DatabaseKind;
  /** Applies pending migrations; answers their names. */
  migrate(): Promise<string[]>;
  /** Closes the client and the engine (PGlite keeps timers alive until closed). */
  close(): Promise<void>;
}

type DatabaseConfig = Pick<
  ServerConfig,
  'databaseUrl' | 'dataDir' | 'dbPoolMax' | 'dbPoolWaitMs' | 'dbConnectTimeoutMs' | 'dbStatementTimeoutMs' | 'requestDeadlineMs'
>;

/** The pg pool settings from the config table (one place, also used by tests). */
export function poolConfig(url: string, config: DatabaseConfig) {
  return {
    connectionString: url,
    max: config.dbPoolMax,
    // pg's connectionTimeoutMillis bounds both a new login and the wait for a pooled client.
    connectionTimeoutMillis: Math.min(config.dbPoolWaitMs, config.dbConnectTimeoutMs),
    statement_timeout: config.dbStatementTimeoutMs,
    idle_in_transaction_session_timeout: config.requestDeadlineMs + 20_000,
    idleTimeoutMillis: 30_000,
    keepAlive: true,
  };
}

/** Opens PostgreSQL when a URL is given, else the embedded PGlite in `dataDir`. */
export async function openDatabase(config: DatabaseConfig, wrapAdapter = (f: SqlDriverAdapterFactory) => f): Promise<Database> {
  if (config.databaseUrl) {
    const url = config.databaseUrl;
    const adapter = new PrismaPg(poolConfig(url, config));
    const prisma = new PrismaClient({ adapter: wrapAdapter(adapter) });
    return {
      prisma,
      kind: 'postgres',
      migrate: () => migrateUp({ databaseUrl: url }),
      close: () => prisma.$disconnect(),
    };
  }
  if (config.dataDir !== 'memory://') mkdirSync(config.dataDir, { recursive: true });
  const pglite = new PGlite(config.dataDir);
  await pglite.waitReady;
  const prisma = new PrismaClient({ adapter: wrapAdapter(new PrismaPGlite(pglite)) });
  return {
    prisma,
    kind: 'pglite',
    migrate: () => migrateUp({ dbClient: pgliteMigrationClient(pglite) }),
    close: async () => {
      await prisma.$disconnect();
      await pglite.close();
    },
  };
}
