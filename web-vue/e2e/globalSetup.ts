/**
 * Starts the real stack once for the suite: builds the SPA, a throwaway PostgreSQL
 * (test-support/src/pgCluster.ts), the API on it with the chain scaled down, and the
 * BFF in front of the API serving web-vue/dist; and a second stack on the real default
 * timings (realTimingsStack.ts) for the specs that measure them. Specs reach the database
 * through a small control server (stop, start, pause, resume), because they run in worker
 * processes; the same server freezes, thaws, stops and starts the BFF and the API
 * (faultControls.ts).
 * Returns the teardown.
 */
import { execFileSync } from 'node:child_process';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import { startBff } from '@tidewater/test-support/bffProcess';
import { startApi } from '@tidewater/test-support/apiProcess';
import { startPrimary } from '@tidewater/test-support/pgCluster';
import { startRealTimingsStack } from './realTimingsStack.ts';
import { faultControls } from './faultControls.ts';
import { apiTimings, signUpLimits, stackEnv } from './stackTimings.ts';

const webVueDir = fileURLToPath(new URL('..', import.meta.url));

export default async function globalSetup(): Promise<() => Promise<void>> {
  execFileSync(process.execPath, [fileURLToPath(new URL('../../node_modules/vite/bin/vite.js', import.meta.url)), 'build', '--logLevel', 'warn'], {
    cwd: webVueDir,
    stdio: 'inherit',
  });
  const database = await startPrimary();
  const api = await startApi({ DATABASE_URL: database.urlFor('tidewater'), LOG_LEVEL: 'warn', ...apiTimings, ...signUpLimits });
  const bffOptions = { apiUrl: api.url, env: { LOG_LEVEL: 'warn', DB_RETRY_MAX_DELAY_MS: apiTimings.DB_RETRY_MAX_DELAY_MS } };
  const bff = await startBff(bffOptions);
  const faults = await faultControls({ api, bff, restartBff: (port) => startBff({ ...bffOptions, port }), databasePort: database.port, databaseName: 'tidewater' });
  const realStack = await startRealTimingsStack();

  const actions: Record<string, () => Promise<void> | void> = {
    '/db/stop': () => database.stop(),
    '/db/start': () => database.start(),
    '/db/pause': () => database.pause(),
    '/db/resume': () => database.resume(),
    ...realStack.actions,
    ...faults.actions,
  };
  const control = createServer((req, res) => {
    const action = actions[req.url ?? ''];
    if (req.method !== 'POST' || !action) return void res.writeHead(404).end();
    Promise.resolve(action()).then(
      () => res.writeHead(204).end(),
      (error: unknown) => res.writeHead(500, { 'Content-Type': 'text/plain' }).end(String(error)),
    );
  });
  await new Promise<void>((resolve) => control.listen(0, '127.0.0.1', resolve));
  process.env[stackEnv.baseUrl] = bff.url;
  process.env[stackEnv.realBaseUrl] = realStack.url;
  process.env[stackEnv.controlUrl] = `http://127.0.0.1:${(control.address() as AddressInfo).port}`;
  process.env[stackEnv.databaseUrl] = database.urlFor('tidewater');
  Object.assign(process.env, faults.env);

  return async () => {
    control.close();
    await realStack.stop();
    await faults.stop();
    await bff.stop();
    await api.stop();
    await database.destroy();
  };
}
