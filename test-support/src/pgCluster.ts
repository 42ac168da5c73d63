/**
 * Throwaway PostgreSQL clusters for tests and CI (adr/0014), from the
 * machine's binaries or, on a machine without PostgreSQL, npm's (`pgBinaries.ts`): a
 * primary (initdb) and streaming replicas (a manual base backup: `baseBackup.ts`), each on
 * its own free port on 127.0.0.1, trust auth, fsync off for speed.
 *
 * CLI (CI): `npx tsx test-support/src/pgCluster.ts start --dir D [--replica]` prints
 * `DATABASE_URL=…` (and `DATABASE_REPLICA_URL=…`) and leaves the servers running;
 * `npx tsx test-support/src/pgCluster.ts stop --dir D` stops them.
 */
import { appendFileSync, existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { baseBackup } from './baseBackup.ts';
import { pgBinaries } from './pgBinaries.ts';
import * as proc from './pgProcesses.ts';

/** One server; every method returns once the change has happened. */
export interface PgCluster {
  readonly port: number;
  /** Holds `data/`, `sock/` (the socket directory, beside the data) and `postgres.log`. */
  readonly dir: string;
  /** `postgres://postgres@127.0.0.1:PORT/postgres` (trust auth). */
  readonly url: string;
  /** The URL of another database on this server (a primary also has `tidewater`). */
  urlFor(database: string): string;
  start(): Promise<void>;
  /** Fast shutdown (a paused cluster is resumed first); connecting is then refused. */
  stop(): Promise<void>;
  /** Immediate shutdown, as a crash (a paused cluster is resumed first); the next start recovers. */
  crash(): Promise<void>;
  /** `pg_ctl promote` a standby: it leaves recovery and takes writes (a failover). */
  promote(): Promise<void>;
  /** SIGSTOP the postmaster, then all its children: a faithful "hung database". */
  pause(): Promise<void>;
  /** SIGCONT what `pause` stopped. */
  resume(): Promise<void>;
  /** Stop and delete every file. */
  destroy(): Promise<void>;
  /** The postmaster's pid, then its children's; empty when stopped. */
  pids(): number[];
}

/** Options for {@link startPrimary} and {@link startReplica}. */
export interface StartOptions {
  /** Use this directory (created if missing) instead of a fresh `mkdtemp` in /tmp. */
  dir?: string;
  /** Extra postgresql.conf settings for a primary, e.g. `{ deadlock_timeout: '100ms' }`. */
  settings?: Record<string, string>;
  /** Leave it running when this process exits (the CLI). Default: stopped and deleted at exit. */
  keepOnExit?: boolean;
}

/** Fast to start and small: a test database, never a durable one. */
const PRIMARY_SETTINGS = {
  listen_addresses: '127.0.0.1',
  fsync: 'off',
  synchronous_commit: 'off',
  full_page_writes: 'off',
  shared_buffers: '16MB',
  max_connections: '50',
  wal_level: 'replica',
  max_wal_senders: '5',
  wal_keep_size: '64MB',
};
const INITDB_FLAGS = '-U postgres -A trust -E UTF8 --locale=C --no-sync --no-instructions'.split(' ');
const live = new Set<PgCluster>();

function cluster(dir: string, port: number, keepOnExit = false): PgCluster {
  const pidFile = join(dir, 'data', 'postmaster.pid');
  const postmaster = () => (existsSync(pidFile) ? Number(readFileSync(pidFile, 'utf8').split('\n')[0]) : 0);
  const self: PgCluster = {
    port,
    dir,
    url: `postgres://postgres@127.0.0.1:${port}/postgres`,
    urlFor: (database) => `postgres://postgres@127.0.0.1:${port}/${database}`,
    start: () => proc.pgCtl(dir, 'start'),
    promote: () => proc.pgCtl(dir, 'promote'),
    stop: async () => {
      await self.resume();
      await proc.pgCtl(dir, 'stop');
    },
    crash: async () => {
      await self.resume();
      await proc.pgCtl(dir, 'stop', 'immediate');
    },
    pause: async () => {
      const pid = postmaster();
      await proc.stopOrContinue([pid], 'SIGSTOP'); // first, so it cannot start a child we would miss
      await proc.stopOrContinue(proc.childrenOf(pid), 'SIGSTOP');
    },
    resume: () => proc.stopOrContinue(self.pids().reverse(), 'SIGCONT'),
    pids: () => {
      const pid = postmaster();
      return pid && existsSync(`/proc/${pid}`) ? [pid, ...proc.childrenOf(pid)] : [];
    },
    destroy: async () => {
      live.delete(self);
      if (self.pids().length) await self.stop().catch(() => undefined);
      rmSync(dir, { recursive: true, force: true });
    },
  };
  if (!keepOnExit) live.add(self);
  return self;
}

// An interrupted test run must not leave servers behind: immediate shutdown, then delete.
process.once('exit', () => {
  for (const { pids, dir } of live) {
    proc.signal(pids(), 'SIGCONT');
    proc.signal(pids().slice(0, 1), 'SIGQUIT');
    rmSync(dir, { recursive: true, force: true });
  }
});

/** initdb and start a primary (wal_level=replica, replication allowed from 127.0.0.1) with a `tidewater` database. */
export async function startPrimary(opts: StartOptions = {}): Promise<PgCluster> {
  const dir = proc.ownedDir(opts.dir ? resolve(opts.dir) : mkdtempSync('/tmp/tidewater-pg-'));
  proc.ownedDir(join(dir, 'sock'));
  const data = join(dir, 'data');
  await proc.asPostgres('initdb', ['-D', data, ...INITDB_FLAGS]);
  appendFileSync(join(data, 'pg_hba.conf'), 'host replication postgres 127.0.0.1/32 trust\n');
  proc.configure(data, { ...PRIMARY_SETTINGS, ...opts.settings });
  const primary = cluster(dir, await proc.startOnFreePort(dir), opts.keepOnExit);
  await proc.queryOnce(primary.url, 'CREATE DATABASE tidewater');
  return primary;
}

/**
 * A base backup of `primary` (always the manual one, also where `pg_basebackup` exists: one
 * path, tested by every suite that uses a replica), started on its own port as a streaming
 * standby; resolves once it accepts connections in recovery.
 */
export async function startReplica(
  primary: PgCluster,
  opts: Omit<StartOptions, 'settings'> = {},
): Promise<PgCluster> {
  const dir = proc.ownedDir(opts.dir ? resolve(opts.dir) : mkdtempSync('/tmp/tidewater-pg-replica-'));
  proc.ownedDir(join(dir, 'sock'));
  await baseBackup({
    from: join(primary.dir, 'data'),
    to: join(dir, 'data'),
    primaryUrl: primary.url,
    primary: { host: '127.0.0.1', port: primary.port },
    owner: pgBinaries().runAs,
  });
  const replica = cluster(dir, await proc.startOnFreePort(dir), opts.keepOnExit);
  await proc.waitFor(`the replica on port ${replica.port} to accept connections in recovery`, async () => {
    const [row] = await proc.queryOnce<{ r: boolean }>(replica.url, 'SELECT pg_is_in_recovery() AS r');
    return row?.r === true;
  });
  return replica;
}

async function cli([command, ...args]: string[]): Promise<void> {
  const dir = args.includes('--dir') ? args[args.indexOf('--dir') + 1] : undefined;
  if (!dir || (command !== 'start' && command !== 'stop'))
    throw new Error('usage: pgCluster.ts start|stop --dir DIR [--replica] [--set name=value]…');
  if (command === 'stop') {
    for (const server of [join(dir, 'replica'), dir]) {
      if (existsSync(join(server, 'data', 'postmaster.pid'))) await proc.pgCtl(server, 'stop');
    }
    return;
  }
  // --set name=value (repeatable): a postgresql.conf setting of the primary, e.g. the bench's max_connections.
  const settings = Object.fromEntries(args.flatMap((arg, i) => (args[i - 1] === '--set' ? [arg.split(/=(.*)/s).slice(0, 2)] : [])));
  const primary = await startPrimary({ dir, keepOnExit: true, settings });
  console.log(`DATABASE_URL=${primary.urlFor('tidewater')}`);
  if (!args.includes('--replica')) return;
  const replica = await startReplica(primary, { dir: join(dir, 'replica'), keepOnExit: true });
  console.log(`DATABASE_REPLICA_URL=${replica.urlFor('tidewater')}`);
}

if (process.argv[1] && import.meta.url === pathToFileURL(resolve(process.argv[1])).href) {
  cli(process.argv.slice(2)).catch((error: unknown) => {
    console.error(error);
    process.exitCode = 1;
  });
}
