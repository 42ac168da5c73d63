/**
 * What the embedded database's tests share (`*.pglite.test.ts`): a fresh in-memory PGlite
 * with the schema and a data layer on it, as the API opens them with no DATABASE_URL. Call
 * it at the top of a test file: it opens the database before the file's tests and closes it
 * after.
 */
import { afterAll, beforeAll } from 'vitest';
import { loadConfig, type ServerConfig } from '../../src/config.ts';
import { createDataLayer } from '../../src/data/createDataLayer.ts';
import type { DataLayer } from '../../src/data/dataLayer.ts';
import { openDatabase, type Database } from '../../src/data/connections/index.ts';
import { memoryLogger } from './inRequest.ts';

/** The database and the data layer, set once the file's `beforeAll` has run. */
export interface DataLayerOnPglite {
  config: ServerConfig;
  database: Database;
  data: DataLayer;
}

/** Opens and migrates the embedded database for the calling test file. */
export function dataLayerOnPglite(): DataLayerOnPglite {
  const setup = {} as DataLayerOnPglite;
  beforeAll(async () => {
    setup.config = loadConfig({ DATA_DIR: 'memory://' });
    setup.database = await openDatabase(setup.config);
    await setup.database.migrate();
    setup.data = createDataLayer({ database: setup.database, config: setup.config, logger: memoryLogger().logger });
  }, 60_000);
  afterAll(() => setup.database?.close());
  return setup;
}
