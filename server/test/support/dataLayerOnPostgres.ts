/**
 * What the data layer's PostgreSQL tests share (dataLayer.retries.pg.test.ts,
 * dataLayer.replica.pg.test.ts, dataLayer.outage.pg.test.ts): a real PostgreSQL 15 primary
 * with the schema (and, when asked, a real streaming replica of it), a data layer on it
 * with short retry delays and a 200 ms readiness probe, more databases on the same servers,
 * plain SQL on either server, and a fresh account. Call it at the top of a test file: it
 * starts the servers before the file's tests and destroys them after.
 */
import { randomUUID } from 'node:crypto';
import pg from 'pg';
import type { Logger } from 'pino';
import { afterAll, beforeAll } from 'vitest';
import { startPrimary, startReplica, type PgCluster } from '@tidewater/test-support/pgCluster';
import { uniqueHandle } from '@tidewater/test-support/handles';
import { loadConfig, type ServerConfig } from '../../src/config.ts';
import { createDataLayer } from '../../src/data/createDataLayer.ts';
import type { DataLayer } from '../../src/data/dataLayer.ts';
import { openDatabase, type Database } from '../../src/data/connections/index.ts';
import { memoryLogger } from './inRequest.ts';

/** The servers and the data layer, set once the file's `beforeAll` has run. */
export interface DataLayerOnPostgres {
  primary: PgCluster;
  /** Started only with `{ replica: true }`. */
  replica: PgCluster;
  config: ServerConfig;
  database: Database;
  data: DataLayer;
  /** The logger of `data` and of every database `open` makes, with its lines. */
  log: ReturnType<typeof memoryLogger>;
  /** Opens one more database with `overrides` on the config; closed after the file's tests. */
  open(overrides?: Partial<ServerConfig>, logger?: Logger): Promise<Database>;
  /** Creates a user and an account holding `balance`; answers the account's id. */
  newAccount(balance: bigint): Promise<string>;
}

/** Starts the primary (and the replica when asked) for the calling test file. */
export function dataLayerOnPostgres(options: { replica: boolean }): DataLayerOnPostgres {
  const opened: Database[] = [];
  const setup = {
    log: memoryLogger(),
    async open(overrides: Partial<ServerConfig> = {}, logger = setup.log.logger): Promise<Database> {
      const db = await openDatabase({ ...setup.config, ...overrides }, { logger });
      opened.push(db);
      return db;
    },
    async newAccount(balance: bigint): Promise<string> {
      const userId = randomUUID();
      const accountId = randomUUID();
      await setup.database.prisma.user.create({
        data: { id: userId, email: `${userId}@example.com`, displayName: 'T', handle: uniqueHandle('data'), passwordHash: 'x', pinHash: 'y' },
      });
      await setup.database.prisma.account.create({ data: { id: accountId, userId, name: 'A', balanceMinor: balance } });
      return accountId;
    },
  } as DataLayerOnPostgres;

  beforeAll(async () => {
    setup.primary = await startPrimary();
    setup.config = {
      // A 200 ms readiness probe: back within one probe interval is back within 1 s.
      ...loadConfig({ DB_RETRY_BASE_DELAY_MS: '20', DB_RETRY_MAX_DELAY_MS: '200', DB_POOL_WAIT_MS: '2000', DB_CONNECT_TIMEOUT_MS: '2000', DB_COMMIT_TIMEOUT_MS: '2000', DB_READINESS_PROBE_MS: '200' }),
      databaseUrl: setup.primary.urlFor('tidewater'),
    };
    setup.database = await setup.open();
    await setup.database.migrate();
    if (options.replica) setup.replica = await startReplica(setup.primary);
    setup.data = createDataLayer({ database: setup.database, config: setup.config, logger: setup.log.logger });
  }, 180_000);

  afterAll(async () => {
    for (const db of opened) await db.close().catch(() => {});
    await setup.replica?.destroy();
    await setup.primary?.destroy();
  });
  return setup;
}

/** Runs one statement on `cluster` through a connection of its own; answers its rows. */
export async function sql(cluster: PgCluster, text: string, values: unknown[] = []) {
  const client = new pg.Client({ connectionString: cluster.urlFor('tidewater') });
  await client.connect();
  try {
    return (await client.query(text, values)).rows;
  } finally {
    await client.end();
  }
}
