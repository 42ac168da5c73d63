/**
 * Starts the real API as a child process for tests (HTTP through a real socket, the
 * real start-up path): on a free port, with the environment given, and resolves once
 * `/api/health` answers. Its log lines are kept for assertions.
 */
import { randomBytes } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { freePort } from './pgProcesses.ts';
import { startServerProcess, type ServerProcess } from './serverProcess.ts';

const serverDir = fileURLToPath(new URL('../../server/', import.meta.url));

/** A running API process; `metricsUrl` is its `/metrics` (on a free port of its own). */
export type ApiProcess = ServerProcess & { readonly metricsUrl: string };

/** Ports come from the one allocator the clusters use too, so no two servers of a test process are given the same one. */
export { freePort };

/**
 * The token-signing secret of every API this test process starts (unless `env` names
 * another, or '' for none): random per run, so no test secret lives in the source, and
 * shared, so a customer signed in on one API process is signed in on the next.
 */
const testSigningSecret = process.env.JWT_SECRET || `test-${randomBytes(24).toString('hex')}`;
/** PIN_PEPPER likewise (adr/0053): random per run, shared by every API process of the run. */
export const testPinPepper = process.env.PIN_PEPPER || `t1:${randomBytes(24).toString('hex')}`;

/**
 * Starts the API with `env` added to this process's environment; `entry`: another script
 * that serves it (an absolute path; the bench's layers-off API), default `src/main.ts`.
 */
export async function startApi(
  env: Record<string, string> = {},
  startTimeoutMs = 90_000,
  entry?: string,
): Promise<ApiProcess> {
  const port = await freePort();
  const metricsPort = env.API_METRICS_PORT ?? String(await freePort());
  const api = await startServerProcess({
    name: 'the API',
    cwd: serverDir,
    entry,
    // One worker unless a test asks for more (API_WORKERS, adr/0016): its log lines and its pid are then the API's.
    env: { ...process.env, LOG_LEVEL: 'info', JWT_SECRET: testSigningSecret, PIN_PEPPER: testPinPepper, API_WORKERS: '1', ...env, API_PORT: String(port), API_METRICS_PORT: metricsPort },
    port,
    healthPath: '/api/health',
    startTimeoutMs,
    pollMs: 200,
  });
  return Object.assign(api, { metricsUrl: `http://127.0.0.1:${metricsPort}/metrics` });
}
