/**
 * Starts the real API as a child process for tests (HTTP through a real socket, the
 * real start-up path): on a free port, with the environment given, and resolves once
 * `/api/health` answers. Its log lines are kept for assertions.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { createInterface } from 'node:readline';
import { randomBytes } from 'node:crypto';
import { createServer } from 'node:net';
import { fileURLToPath } from 'node:url';
import { setTimeout as sleep } from 'node:timers/promises';

const serverDir = fileURLToPath(new URL('../../server/', import.meta.url));

/** A running API process. */
export interface ApiProcess {
  readonly url: string;
  readonly port: number;
  readonly child: ChildProcess;
  /** Every line the API logged so far (pino JSON lines). */
  readonly logLines: string[];
  /** Stops the process (SIGTERM, then SIGKILL after 5 s). */
  stop(): Promise<void>;
}

/** A free TCP port on 127.0.0.1. */
export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address();
      probe.close(() =>
        typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port')),
      );
    });
  });
}

/**
 * The token-signing secret of every API this test process starts (unless `env` names
 * another, or '' for none): random per run, so no test secret lives in the source, and
 * shared, so a customer signed in on one API process is signed in on the next.
 */
const testSigningSecret = process.env.JWT_SECRET || `test-${randomBytes(24).toString('hex')}`;

/** Starts the API with `env` added to this process's environment. */
export async function startApi(
  env: Record<string, string> = {},
  startTimeoutMs = 90_000,
): Promise<ApiProcess> {
  const port = await freePort();
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts'], {
    cwd: serverDir,
    env: { ...process.env, LOG_LEVEL: 'info', JWT_SECRET: testSigningSecret, ...env, API_PORT: String(port) },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const logLines: string[] = [];
  // Whole lines: a line can arrive split across two chunks of the pipe.
  for (const stream of [child.stdout!, child.stderr!]) createInterface({ input: stream }).on('line', (line) => line && logLines.push(line));
  const url = `http://127.0.0.1:${port}`;
  const exited = new Promise<never>((_, reject) =>
    child.once('exit', (code) =>
      reject(new Error(`the API exited with ${code} before it was ready:\n${logLines.join('\n')}`)),
    ),
  );
  exited.catch(() => {});
  const started = Date.now();
  for (;;) {
    const ready = await Promise.race([
      fetch(`${url}/api/health`, { signal: AbortSignal.timeout(1_000) }).then(
        (r) => r.ok,
        () => false,
      ),
      exited,
    ]);
    if (ready) break;
    if (Date.now() - started > startTimeoutMs) {
      child.kill('SIGKILL');
      throw new Error(
        `the API did not answer /api/health within ${startTimeoutMs} ms:\n${logLines.join('\n')}`,
      );
    }
    await sleep(200);
  }
  return {
    url,
    port,
    child,
    logLines,
    async stop() {
      if (child.exitCode !== null || child.signalCode !== null) return;
      const gone = new Promise<void>((resolve) => child.once('exit', () => resolve()));
      child.kill('SIGCONT');
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), 5_000);
      await gone;
      clearTimeout(timer);
    },
  };
}
