/**
 * What the API's and the BFF's test processes share (apiProcess.ts, bffProcess.ts): run
 * `node src/main.ts` of a workspace (or another entry; Node strips the types itself) with an environment, keep every whole log line,
 * resolve once its health path answers (or fail with its log if it exits or never does),
 * and stop it with SIGTERM, then SIGKILL after 5 s.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { createInterface } from 'node:readline';
import { setTimeout as sleep } from 'node:timers/promises';

/** A running server process. */
export interface ServerProcess {
  readonly url: string;
  readonly port: number;
  readonly child: ChildProcess;
  /** Every line the process logged so far (pino JSON lines). */
  readonly logLines: string[];
  /** Stops the process (a paused one is resumed first; SIGTERM, then SIGKILL after 5 s). */
  stop(): Promise<void>;
}

/** How to start one. */
export interface ServerProcessOptions {
  /** Named in errors: "the API", "the BFF". */
  name: string;
  /** The workspace folder holding `src/main.ts`. */
  cwd: string;
  /** The script to run; default `src/main.ts`. */
  entry?: string;
  env: NodeJS.ProcessEnv;
  port: number;
  /** e.g. `/api/health`: a 2xx answer means ready. */
  healthPath: string;
  startTimeoutMs: number;
  /** How long to wait between two health checks. */
  pollMs: number;
  /** Node's flags before the entry: none as deployed; the bench's baseline passes `--import tsx`. */
  nodeArgs?: string[];
}

/** Starts the process and resolves once it is ready. */
export async function startServerProcess(options: ServerProcessOptions): Promise<ServerProcess> {
  const { name, port, healthPath, startTimeoutMs } = options;
  const child = spawn(process.execPath, [...(options.nodeArgs ?? []), options.entry ?? 'src/main.ts'], {
    cwd: options.cwd,
    env: options.env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const logLines: string[] = [];
  // Whole lines: a line can arrive split across two chunks of the pipe.
  for (const stream of [child.stdout!, child.stderr!]) createInterface({ input: stream }).on('line', (line) => line && logLines.push(line));
  const url = `http://127.0.0.1:${port}`;
  const exited = new Promise<never>((_, reject) =>
    child.once('exit', (code) => reject(new Error(`${name} exited with ${code} before it was ready:\n${logLines.join('\n')}`))),
  );
  exited.catch(() => {});
  const started = Date.now();
  for (;;) {
    const ready = await Promise.race([
      fetch(`${url}${healthPath}`, { signal: AbortSignal.timeout(1_000) }).then(
        (r) => r.ok,
        () => false,
      ),
      exited,
    ]);
    if (ready) break;
    if (Date.now() - started > startTimeoutMs) {
      child.kill('SIGKILL');
      throw new Error(`${name} did not answer ${healthPath} within ${startTimeoutMs} ms:\n${logLines.join('\n')}`);
    }
    await sleep(options.pollMs);
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
