/**
 * A second stack for the outage specs that need the REAL timeout chain (adr/0011): its
 * own throwaway PostgreSQL, the API and the BFF on every default (40 s deadline, 10 s
 * Retry-After, 1 s readiness probe, 55 s BFF timeout), so the SPA's real 65 s abort and
 * 120 s read budget meet the numbers they were derived from. globalSetup starts it; specs
 * reach it by `stackEnv.realBaseUrl` and drive its database with {@link realDatabase}.
 */
import { startBff } from '@tidewater/test-support/bffProcess';
import { startApi } from '@tidewater/test-support/apiProcess';
import { startPrimary } from '@tidewater/test-support/pgCluster';
import { stackEnv } from './stackTimings.ts';

/** The control server's actions on this stack's database. */
export const realDatabasePaths = { stop: '/real/db/stop', start: '/real/db/start' } as const;

/** Starts the stack; answers its URL, the control actions and its teardown. */
export async function startRealTimingsStack() {
  const database = await startPrimary();
  const api = await startApi({ DATABASE_URL: database.urlFor('tidewater'), LOG_LEVEL: 'warn' });
  const bff = await startBff({ apiUrl: api.url, env: { LOG_LEVEL: 'warn' } });
  return {
    url: bff.url,
    actions: {
      [realDatabasePaths.stop]: () => database.stop(),
      [realDatabasePaths.start]: () => database.start(),
    } as Record<string, () => Promise<void>>,
    async stop() {
      await bff.stop();
      await api.stop();
      await database.destroy();
    },
  };
}

/** Asks the control server to stop or start the real-timings stack's database. */
export async function realDatabase(action: keyof typeof realDatabasePaths): Promise<void> {
  const answer = await fetch(`${process.env[stackEnv.controlUrl]}${realDatabasePaths[action]}`, { method: 'POST' });
  if (answer.status !== 204) throw new Error(`real database ${action} failed: ${answer.status} ${await answer.text()}`);
}
