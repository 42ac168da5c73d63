/**
 * The operating-system half of `pgCluster.ts`: running PostgreSQL's binaries (from the
 * machine or from npm, as a non-root user when we are root: `pgBinaries.ts`), free ports,
 * and a server's process tree (adr/0014).
 */
import { execFile } from 'node:child_process';
import { appendFileSync, chownSync, existsSync, mkdirSync, readdirSync, readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { promisify } from 'node:util';
import pg from 'pg';
import { pgBinaries } from './pgBinaries.ts';

const run = promisify(execFile);
const handedOutPorts = new Set<number>();

/** Runs a PostgreSQL binary (as the servers' user when we are root); resolves to its stdout. */
export async function asPostgres(binary: 'initdb' | 'pg_ctl' | 'postgres', args: string[]): Promise<string> {
  const { dir, runAs } = pgBinaries();
  const { stdout } = await run(join(dir, binary), args, runAs ? { ...runAs, cwd: '/' } : {});
  return stdout;
}

/** Creates `path` (and parents) and gives it to the servers' user when we are root. */
export function ownedDir(path: string): string {
  mkdirSync(path, { recursive: true });
  const { runAs } = pgBinaries();
  if (runAs) chownSync(path, runAs.uid, runAs.gid);
  return path;
}

/**
 * The first port the kernel hands out to outgoing connections (Linux's ip_local_port_range).
 * A port the kernel picked for a listener (`listen(0)`) comes from that range too, so between
 * its check and the server's own listen, any test's outgoing connection could take it as its
 * local port (a BFF once met EADDRINUSE so); ports below it are only ever taken by a listener.
 */
const ephemeralPortsFrom = (() => {
  try {
    return Number(readFileSync('/proc/sys/net/ipv4/ip_local_port_range', 'utf8').trim().split(/\s+/)[0]) || 32768;
  } catch {
    return 32768;
  }
})();

/** Whether a server can listen on `port` of 127.0.0.1 now. */
const canListenOn = (port: number) =>
  new Promise<boolean>((done) => {
    const server = createServer().once('error', () => done(false));
    server.listen(port, '127.0.0.1', () => server.close(() => done(true)));
  });

/**
 * A port on 127.0.0.1 that was free a moment ago, below the ports outgoing connections take,
 * and that this process has not handed out before (clusters, APIs, BFFs alike).
 */
export async function freePort(): Promise<number> {
  const lowest = Math.min(10_000, ephemeralPortsFrom - 1_000);
  for (;;) {
    const port = lowest + Math.floor(Math.random() * (ephemeralPortsFrom - lowest));
    if (!handedOutPorts.has(port) && (await canListenOn(port))) return (handedOutPorts.add(port), port);
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
 * `pg_ctl start` (waits until it accepts connections), `stop`: fast by default (ends
 * sessions, then stops), or immediate (a crash: no checkpoint, the next start recovers),
 * or `promote` (a standby leaves recovery; waits until it accepts writes).
 */
export async function pgCtl(dir: string, action: 'start' | 'stop' | 'promote', mode: 'fast' | 'immediate' = 'fast'): Promise<void> {
  const data = ['-D', join(dir, 'data')];
  const args =
    action === 'start' ? ['-t', '120', ...data, '-l', join(dir, 'postgres.log')] : action === 'promote' ? ['-t', '60', ...data] : ['-m', mode, ...data];
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
    await sleep(everyMs);
  }
}
