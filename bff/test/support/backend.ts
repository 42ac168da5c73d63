/**
 * The real API behind the BFF in tests: a throwaway PostgreSQL cluster (also holding the
 * BFF's sessions, in database `postgres`, table `bff_session`) and the API on it. When
 * the machine cannot start a cluster, the API runs on PGlite in a temp dir and sessions
 * stay in memory (slower to start, same behaviour).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { startApi, type ApiProcess } from '@tidewater/test-support/apiProcess';
import { startPrimary, type PgCluster } from '@tidewater/test-support/pgCluster';
import { openedSession } from '../../src/session/sealedStore.ts';
import type { SessionAuth } from '../../src/session/sessionData.ts';

/** The tests' BFF_TOKEN_KEY: 32 bytes, in base64. */
const TEST_TOKEN_KEY = Buffer.from('tidewater-test-token-key-32bytes');

/** A database for the API, and maybe one for sessions. */
export interface Backend {
  /** Env for startApi. */
  readonly apiEnv: Record<string, string>;
  /** Env for startBff: PostgreSQL sessions when a cluster runs, else nothing (memory). */
  readonly bffEnv: Record<string, string>;
  /** The session-store database, when there is one. */
  readonly sessionDatabaseUrl: string | undefined;
  /** Starts (another) API on this database. */
  startApi(extraEnv?: Record<string, string>): Promise<ApiProcess>;
  /** The stored session rows (sid → sess, as stored: the tokens sealed), PostgreSQL only. */
  sessionRows(): Promise<Array<{ sid: string; sess: Record<string, unknown> }>>;
  /** What a stored session's sealed `auth` holds, opened with the tests' key. */
  openAuth(sess: Record<string, unknown>): SessionAuth | undefined;
  destroy(): Promise<void>;
}

/** Starts the databases. */
export async function startBackend(): Promise<Backend> {
  let cluster: PgCluster | undefined;
  let dataDir: string | undefined;
  try {
    cluster = await startPrimary();
  } catch (error) {
    console.warn(`no throwaway PostgreSQL (${String(error)}); the API runs on PGlite and sessions in memory`);
    dataDir = mkdtempSync(join(tmpdir(), 'tidewater-bff-pglite-'));
  }
  const sessionDatabaseUrl = cluster?.urlFor('postgres');
  const apiEnv: Record<string, string> = cluster
    ? { DATABASE_URL: cluster.urlFor('tidewater') }
    : { DATA_DIR: dataDir! };
  const bffEnv: Record<string, string> = sessionDatabaseUrl
    ? { BFF_SESSION_DATABASE_URL: sessionDatabaseUrl, SESSION_SECRET: 'test-session-secret-0123456789abcdef', BFF_TOKEN_KEY: TEST_TOKEN_KEY.toString('base64') }
    : {};
  return {
    apiEnv,
    bffEnv,
    sessionDatabaseUrl,
    startApi: (extraEnv = {}) => startApi({ ...apiEnv, ...extraEnv }),
    async sessionRows() {
      if (!sessionDatabaseUrl) return [];
      const client = new pg.Client(sessionDatabaseUrl);
      await client.connect();
      try {
        const result = await client.query<{ sid: string; sess: Record<string, unknown> }>(
          'SELECT sid, sess FROM bff_session',
        );
        return result.rows;
      } finally {
        await client.end();
      }
    },
    openAuth(sess) {
      return openedSession({ current: TEST_TOKEN_KEY, previous: [] }, sess as never).auth;
    },
    async destroy() {
      await cluster?.destroy();
      if (dataDir) rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
