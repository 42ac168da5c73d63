/**
 * Starts the real BFF as a child process for tests and the Playwright suite (real HTTP,
 * the real start-up path): on a free port, pointed at `apiUrl`, with `env` added; resolves
 * once `/bff/health` answers. Its log lines (pino JSON) are kept for assertions.
 *
 * The parent's DATABASE_URL is not passed on (it would make the BFF demand a session
 * database); pass BFF_SESSION_DATABASE_URL and SESSION_SECRET in `env` for PostgreSQL
 * sessions.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { setTimeout as sleep } from 'node:timers/promises';
import { freePort } from './apiProcess.ts';

const bffDir = fileURLToPath(new URL('../../bff/', import.meta.url));

/** A running BFF process. */
export interface BffProcess {
  readonly url: string;
  readonly port: number;
  readonly child: ChildProcess;
  /** Every line the BFF logged so far. */
  readonly logLines: string[];
  /** Stops the process (SIGTERM, then SIGKILL after 5 s). */
  stop(): Promise<void>;
}

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
  const inherited = { ...process.env };
  delete inherited.DATABASE_URL;
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts'], {
    cwd: bffDir,
    env: {
      ...inherited,
      LOG_LEVEL: 'info',
      ...env,
      API_URL: apiUrl,
      BFF_PORT: String(port),
      BFF_HOST: '127.0.0.1',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const logLines: string[] = [];
  // Whole lines: a line can arrive split across two chunks of the pipe.
  for (const stream of [child.stdout!, child.stderr!]) createInterface({ input: stream }).on('line', (line) => line && logLines.push(line));
  const url = `http://127.0.0.1:${port}`;
  const exited = new Promise<never>((_, reject) =>
    child.once('exit', (code) =>
      reject(new Error(`the BFF exited with ${code} before it was ready:\n${logLines.join('\n')}`)),
    ),
  );
  exited.catch(() => {});
  const started = Date.now();
  for (;;) {
    const ready = await Promise.race([
      fetch(`${url}/bff/health`, { signal: AbortSignal.timeout(1_000) }).then(
        (r) => r.ok,
        () => false,
      ),
      exited,
    ]);
    if (ready) break;
    if (Date.now() - started > startTimeoutMs) {
      child.kill('SIGKILL');
      throw new Error(
        `the BFF did not answer /bff/health within ${startTimeoutMs} ms:\n${logLines.join('\n')}`,
      );
    }
    await sleep(100);
  }
  return {
    url,
    port,
    child,
    logLines,
    async stop() {
      if (child.exitCode !== null || child.signalCode !== null) return;
      const gone = new Promise<void>((resolve) => child.once('exit', () => resolve()));
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), 5_000);
      await gone;
      clearTimeout(timer);
    },
  };
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
