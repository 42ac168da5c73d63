/**
 * The operating-system half of `pgCluster.ts`: where PostgreSQL's binaries are, running
 * them as the `postgres` user (initdb/postgres refuse root), free ports, and a server's
 * process tree (DESIGN.md "Facts about the stack").
 */
import { execFile, execFileSync } from 'node:child_process';
import { appendFileSync, chownSync, existsSync, mkdirSync, readdirSync, readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { promisify } from 'node:util';
import pg from 'pg';

const run = promisify(execFile);
const isRoot = process.getuid?.() === 0;
const handedOutPorts = new Set<number>();
let binDirCache: string | undefined;

/** `pg_config --bindir` when it holds initdb, else Debian's PostgreSQL 15 directory. */
export function binDir(): string {
  if (binDirCache) return binDirCache;
  try {
    const dir = execFileSync('pg_config', ['--bindir'], { encoding: 'utf8' }).trim();
    if (existsSync(join(dir, 'initdb'))) return (binDirCache = dir);
  } catch {
    // no pg_config on this machine
  }
  return (binDirCache = '/usr/lib/postgresql/15/bin');
}

/** Runs a PostgreSQL binary (as the `postgres` user when we are root); resolves to its stdout. */
export async function asPostgres(binary: string, args: string[]): Promise<string> {
  const file = join(binDir(), binary);
  const { stdout } = isRoot
    ? await run('runuser', ['-u', 'postgres', '--', file, ...args])
    : await run(file, args);
  return stdout;
}

/** Creates `path` (and parents) and gives it to the `postgres` user when we are root. */
export function ownedDir(path: string): string {
  mkdirSync(path, { recursive: true });
  if (isRoot) {
    const id = (flag: string) => Number(execFileSync('id', [flag, 'postgres'], { encoding: 'utf8' }));
    chownSync(path, id('-u'), id('-g'));
  }
  return path;
}

/** A port on 127.0.0.1 that was free a moment ago and that this process has not handed out before. */
export async function freePort(): Promise<number> {
  for (;;) {
    const port = await new Promise<number>((done, fail) => {
      const server = createServer().once('error', fail);
      server.listen(0, '127.0.0.1', () => {
        const { port } = server.address() as { port: number };
        server.close(() => done(port));
      });
    });
    if (!handedOutPorts.has(port)) return (handedOutPorts.add(port), port);
  }
}

/** Appends settings to postgresql.conf (a later line wins over an earlier one). */
export function configure(dataDir: string, settings: Record<string, string>): void {
  const lines = Object.entries(settings).map(([key, value]) => `${key} = '${value}'\n`);
  appendFileSync(join(dataDir, 'postgresql.conf'), lines.join(''));
}

/** `/proc/PID/stat` fields after "(comm)" (comm may hold spaces): [state, ppid, …]; undefined once it ended. */
function statOf(pid: number | string): string[] | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  } catch {
    return undefined;
  }
}

/** The pids whose parent is `pid`. */
export function childrenOf(pid: number): number[] {
  const pids = readdirSync('/proc').filter((name) => /^\d+$/.test(name));
  return pids.filter((name) => Number(statOf(name)?.[1]) === pid).map(Number);
}

/** The process state letter ('T': stopped by a signal), or undefined once it ended. */
export const processState = (pid: number): string | undefined => statOf(pid)?.[0];

/**
 * SIGSTOP or SIGCONT `pids`, resolving once each has stopped (or continued). One that
 * ended counts as done: it is gone, or a zombie ('Z') its stopped parent cannot reap.
 */
export async function stopOrContinue(pids: number[], name: 'SIGSTOP' | 'SIGCONT'): Promise<void> {
  signal(pids, name);
  const done = (pid: number) => {
    const state = processState(pid) ?? 'X';
    return 'ZX'.includes(state) || (state === 'T') === (name === 'SIGSTOP');
  };
  await waitFor(`${name} to take effect`, async () => pids.every(done), 5_000, 5);
}

/** Sends `name` to each pid, ignoring any that already ended (and never to 0: our own group). */
export function signal(pids: number[], name: NodeJS.Signals): void {
  for (const pid of pids.filter((pid) => pid > 0)) {
    try {
      process.kill(pid, name);
    } catch {
      // it already ended
    }
  }
}

/**
 * `pg_ctl start` (waits until it accepts connections) or `stop`: fast by default (ends
 * sessions, then stops), or immediate (a crash: no checkpoint, the next start recovers).
 */
export async function pgCtl(dir: string, action: 'start' | 'stop', mode: 'fast' | 'immediate' = 'fast'): Promise<void> {
  const data = ['-D', join(dir, 'data')];
  const args =
    action === 'start' ? ['-t', '120', ...data, '-l', join(dir, 'postgres.log')] : ['-m', mode, ...data];
  await asPostgres('pg_ctl', [action, '-w', ...args]);
}

/**
 * Starts the cluster in `dir` (`data/`, `sock/`, `postgres.log`) on a free port, picking
 * another port when postgres reports the chosen one taken (another process won a race).
 */
export async function startOnFreePort(dir: string): Promise<number> {
  for (let attempt = 1; ; attempt++) {
    const port = await freePort();
    configure(join(dir, 'data'), { port: String(port), unix_socket_directories: join(dir, 'sock') });
    try {
      await pgCtl(dir, 'start');
      return port;
    } catch (error) {
      const log = join(dir, 'postgres.log');
      const tail = existsSync(log) ? readFileSync(log, 'utf8').slice(-2000) : '';
      if (attempt >= 5 || !/could not bind|already in use/i.test(tail)) {
        throw new Error(`postgres did not start in ${dir}:\n${tail}`, { cause: error });
      }
    }
  }
}

/** Connects, runs one statement, disconnects; resolves to its rows. */
export async function queryOnce<Row extends object>(url: string, sql: string): Promise<Row[]> {
  const client = new pg.Client(url);
  client.on('error', () => {}); // a server stopped mid-query must not end the test process
  try {
    await client.connect();
    return (await client.query<Row>(sql)).rows;
  } finally {
    await client.end().catch(() => undefined);
  }
}

/** Polls `ready` every `everyMs` until it resolves true; throws after `withinMs`. */
export async function waitFor(what: string, ready: () => Promise<boolean>, withinMs = 60_000, everyMs = 100) {
  for (const giveUpAt = Date.now() + withinMs; !(await ready().catch(() => false));) {
    if (Date.now() > giveUpAt) throw new Error(`gave up waiting for ${what}`);
    await new Promise((done) => setTimeout(done, everyMs));
  }
}
