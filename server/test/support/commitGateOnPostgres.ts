/**
 * What the commit gate's PostgreSQL tests share (commitGate.deadline.pg.test.ts,
 * commitGate.ownCommit.pg.test.ts): a real primary with the schema, a data layer on it whose
 * gate runs `beforeCommitSent` just before each COMMIT is sent, and a look at whether a
 * user landed. Call it at the top of a test file: it starts the primary before the file's
 * tests and destroys it after them.
 */
import type { Logger } from 'pino';
import { afterAll, beforeAll } from 'vitest';
import { startPrimary, type PgCluster } from '@tidewater/test-support/pgCluster';
import { loadConfig, type ServerConfig } from '../../src/config.ts';
import { createDataLayer } from '../../src/data/createDataLayer.ts';
import type { DataLayer } from '../../src/data/dataLayer.ts';
import { openDatabase, type Database } from '../../src/data/connections/index.ts';
import { memoryLogger } from './inRequest.ts';

/** The primary and the data layer on it, set once the file's `beforeAll` has run. */
export interface CommitGateOnPostgres {
  cluster: PgCluster;
  config: ServerConfig;
  database: Database;
  data: DataLayer;
  logger: Logger;
  /** Whether user `id` is committed, read through the database's own client. */
  exists(id: string): Promise<boolean>;
}

/**
 * Starts the primary for the calling test file. A seam is always installed (a no-op by
 * default), so the commits of every file take the same path through the gate.
 */
export function commitGateOnPostgres(beforeCommitSent: () => Promise<void> = async () => {}): CommitGateOnPostgres {
  const setup = {
    logger: memoryLogger().logger,
    exists: async (id: string) => (await setup.database.prisma.user.count({ where: { id } })) === 1,
  } as CommitGateOnPostgres;

  beforeAll(async () => {
    setup.cluster = await startPrimary();
    setup.config = { ...loadConfig({ DB_RETRY_BASE_DELAY_MS: '20' }), databaseUrl: setup.cluster.urlFor('tidewater') };
    setup.database = await openDatabase(setup.config, { logger: setup.logger, commitGate: { beforeCommitSent } });
    await setup.database.migrate();
    setup.data = createDataLayer({ database: setup.database, config: setup.config, logger: setup.logger });
  });
  afterAll(async () => {
    await setup.database?.close();
    await setup.cluster?.destroy();
  });
  return setup;
}
