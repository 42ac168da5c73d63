/**
 * Opens the bank's database from the config and migrates it. Where the connection string
 * comes from, in order: a connection service (DB_CONNECTION_API_URL + DB_CONNECTION_NAME;
 * a rejected password after a rotation fetches it once more), DATABASE_URL, else the
 * embedded PGlite.
 */
import type { Logger } from 'pino';
import { ConfigError, type ServerConfig } from '../../config.ts';
import { createConnectionSource, withPasswordRotation } from '../connectionSource/index.ts';
import type { ConnectionLayers } from './connectionLayers.ts';
import { openDatabase, type Database } from './database.ts';

/** Opens (through `layers`, default the production ones), migrates and checks the sessions' guards (sessionSettings.ts); answers the database and the migrations it applied. */
export async function openBankDatabase(
  config: ServerConfig,
  logger: Logger,
  layers?: ConnectionLayers,
): Promise<{ database: Database; applied: string[] }> {
  const openAndMigrate = async (databaseUrl: string | undefined) => {
    const database = await openDatabase({ ...config, databaseUrl }, { logger, layers });
    try {
      const applied = await database.migrate();
      await database.checkSessions();
      return { database, applied };
    } catch (error) {
      await database.close().catch(() => {});
      throw error;
    }
  };
  if (!config.dbConnectionApiUrl) return openAndMigrate(config.databaseUrl);
  if (!config.dbConnectionName) throw new ConfigError('DB_CONNECTION_API_URL is set but DB_CONNECTION_NAME is not');
  const source = createConnectionSource({
    apiUrl: config.dbConnectionApiUrl,
    connectionName: config.dbConnectionName,
    token: config.dbConnectionApiToken,
    attempts: config.dbConnectionAttempts,
    backoffMs: config.dbConnectionBackoffMs,
    attemptTimeoutMs: config.dbConnectionAttemptTimeoutMs,
    logger: logger.child({ component: 'connectionSource' }),
  });
  logger.info({ connectionName: config.dbConnectionName }, 'taking the connection string from the connection service');
  return withPasswordRotation(source, openAndMigrate);
}
