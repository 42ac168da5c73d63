/**
 * The sessions' guards at start, on a real PostgreSQL (adr/0060): with DB_SESSION_SETTINGS=startup
 * they hold as sent; with `role` nothing is sent, and the API refuses to start (openBankDatabase)
 * naming each missing setting and the ALTER ROLE that fixes it, until the roles carry them;
 * a replica down at start is said, not a refusal; with DB_PREPARED_STATEMENTS=unnamed no
 * statement is kept prepared on the server.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConfigError, loadConfig, type ServerConfig } from '../../config.ts';
import { startPrimary, type PgCluster } from '@tidewater/test-support/pgCluster';
import { freePort, queryOnce } from '@tidewater/test-support/pgProcesses';
import { memoryLogger } from '../../../test/support/inRequest.ts';
import { openBankDatabase } from './openBankDatabase.ts';
import { openDatabase } from './index.ts';
import { committingStatement } from '../statements.ts';

describe('the guards of every database session, checked at start', () => {
  let cluster: PgCluster;
  let config: ServerConfig;
  const { logger, lines } = memoryLogger();
  /** The same server under another login (trust auth). */
  const as = (role: string) => cluster.urlFor('tidewater').replace('postgres@', `${role}@`);

  beforeAll(async () => {
    cluster = await startPrimary();
    for (const role of ['tw_app', 'tw_reader']) await queryOnce(cluster.url, `CREATE ROLE ${role} LOGIN SUPERUSER`);
    config = loadConfig({ DB_STATEMENT_TIMEOUT_MS: '7000', DB_RETRY_BASE_DELAY_MS: '20' });
  });
  afterAll(async () => {
    await cluster?.destroy();
  });

  /** Opens, migrates and checks as the API does at start; answers the refusal, if any, after closing. */
  const start = async (env: Partial<ServerConfig>) => {
    const opened = await openBankDatabase({ ...config, databaseUrl: cluster.urlFor('tidewater'), ...env }, logger).then(
      (result) => result,
      (error: unknown) => error,
    );
    if (opened instanceof Error) return opened;
    await (opened as { database: { close(): Promise<void> } }).database.close();
    return undefined;
  };

  it('holds with startup parameters, as today', async () => {
    expect(await start({})).toBeUndefined();
  });

  it('starts while the replica is down, saying its sessions were not checked (reads fall back or wait, as before)', async () => {
    const down = `postgres://postgres@127.0.0.1:${await freePort()}/tidewater`;
    expect(await start({ databaseReplicaUrl: down, dbConnectTimeoutMs: 1_000 })).toBeUndefined();
    expect(lines.some((line) => String(line.msg).includes('the replica did not answer at start'))).toBe(true);
  });

  it('refuses to start with DB_SESSION_SETTINGS=role until the roles carry the guards, naming each and its ALTER ROLE', async () => {
    const refusal = await start({ dbSessionSettings: 'role', databaseUrl: as('tw_app'), databaseReadOnlyUrl: as('tw_reader') });
    expect(refusal).toBeInstanceOf(ConfigError);
    const message = (refusal as Error).message;
    expect(message).toContain(`DATABASE_URL: statement_timeout is 0, the API wants 7000; fix: ALTER ROLE "tw_app" SET statement_timeout = '7000ms';`);
    expect(message).toContain(`ALTER ROLE "tw_app" SET idle_in_transaction_session_timeout = '${config.requestDeadlineMs + 20_000}ms';`);
    expect(message).toContain('DATABASE_READ_ONLY_URL: default_transaction_read_only is off, the API wants on; fix: ALTER ROLE "tw_reader" SET default_transaction_read_only = on;');

    // What the message says to run, then the same start again.
    for (const fix of message.split('\n').map((line) => /fix: (ALTER ROLE .*;)$/.exec(line)?.[1]).filter((sql): sql is string => sql !== undefined)) {
      await queryOnce(cluster.url, fix);
    }
    expect(await start({ dbSessionSettings: 'role', databaseUrl: as('tw_app'), databaseReadOnlyUrl: as('tw_reader') })).toBeUndefined();
  });

  it('refuses a role whose timeout differs from the config, and a read-only pool on a read-write role', async () => {
    await queryOnce(cluster.url, `ALTER ROLE tw_app SET statement_timeout = '3s'`);
    const message = String((await start({ dbSessionSettings: 'role', databaseUrl: as('tw_app') })) as Error);
    expect(message).toContain('statement_timeout is 3000, the API wants 7000');
    // Never the advice to make the primary's own role read-only.
    expect(message).toContain('DATABASE_URL (read-only pool; set DATABASE_READ_ONLY_URL): default_transaction_read_only is off, the API wants on; fix: a role of its own for the read-only pool (DATABASE_READ_ONLY_URL) with ALTER ROLE <that role> SET default_transaction_read_only = on;');
  });

  it('keeps no prepared statement on the server with DB_PREPARED_STATEMENTS=unnamed', async () => {
    const preparedAfterUse = async (dbPreparedStatements: string) => {
      const database = await openDatabase({ ...config, databaseUrl: cluster.urlFor('tidewater'), dbPoolMax: 1, dbPreparedStatements }, { logger });
      try {
        // A statement through Prisma Client, and one that is its own commit, on the pool's one connection.
        await database.prisma.$queryRaw`SELECT count(*) AS n FROM users`;
        await committingStatement(database.sendOwnCommit).query`UPDATE users SET display_name = display_name WHERE false`;
        const { rows } = await database.pools[0]!.query<{ name: string }>('SELECT name FROM pg_prepared_statements');
        return rows.map((row) => row.name);
      } finally {
        await database.close();
      }
    };
    expect((await preparedAfterUse('named')).length).toBeGreaterThan(0);
    expect(await preparedAfterUse('unnamed')).toEqual([]);
  });
});
