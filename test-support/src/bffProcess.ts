/**
 * Starts the real BFF as a child process for tests and the Playwright suite (real HTTP,
 * the real start-up path): on a free port, pointed at `apiUrl`, with `env` added; resolves
 * once `/bff/health` answers. Its log lines (pino JSON) are kept for assertions.
 *
 * The parent's DATABASE_URL is not passed on (it would make the BFF demand a session
 * database); pass BFF_SESSION_DATABASE_URL, SESSION_SECRET and BFF_TOKEN_KEY in `env` for PostgreSQL
 * sessions.
 */
import { fileURLToPath } from 'node:url';
import { startServerProcess, type ServerProcess } from './serverProcess.ts';
import { freePort } from './apiProcess.ts';

const bffDir = fileURLToPath(new URL('../../bff/', import.meta.url));

/** A running BFF process; `metricsUrl` is its `/metrics` (on a free port of its own, never the public one). */
export type BffProcess = ServerProcess & { readonly metricsUrl: string };

/** Options of {@link startBff}. */
export interface StartBffOptions {
  /** The API's origin, e.g. `http://127.0.0.1:8081`. */
  apiUrl: string;
  /** Extra environment (SESSION_IDLE_TIMEOUT_MS, BFF_UPSTREAM_TIMEOUT_MS, ...). */
  env?: Record<string, string>;
  /** A fixed port instead of a free one. */
  port?: number;
  startTimeoutMs?: number;
}

/** Starts the BFF. */
export async function startBff({
  apiUrl,
  env = {},
  port: fixedPort,
  startTimeoutMs = 30_000,
}: StartBffOptions): Promise<BffProcess> {
  const port = fixedPort ?? (await freePort());
  const metricsPort = env.BFF_METRICS_PORT ?? String(await freePort());
  const inherited = { ...process.env };
  delete inherited.DATABASE_URL;
  const bff = await startServerProcess({
    name: 'the BFF',
    cwd: bffDir,
    env: { ...inherited, LOG_LEVEL: 'info', ...env, API_URL: apiUrl, BFF_PORT: String(port), BFF_HOST: '127.0.0.1', BFF_METRICS_PORT: metricsPort },
    port,
    healthPath: '/bff/health',
    startTimeoutMs,
    pollMs: 100,
  });
  return Object.assign(bff, { metricsUrl: `http://127.0.0.1:${metricsPort}/metrics` });
}

/** The parsed JSON log lines of a process. */
export function logEntries(logLines: readonly string[]): Array<Record<string, unknown>> {
  return logLines.flatMap((line) => {
    try {
      return [JSON.parse(line) as Record<string, unknown>];
    } catch {
      return [];
    }
  });
}
