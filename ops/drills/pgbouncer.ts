/**
 * A throwaway PgBouncer (Debian's `pgbouncer`, 1.18 here) on loopback for the PgBouncer check
 * (pgbouncerCheck.ts, adr/0060): its own ini, userlist and log in a directory of its own, run
 * in the foreground as the PostgreSQL servers' user (PgBouncer refuses root), stopped by its pid.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { pgBinaries } from '../../test-support/src/pgBinaries.ts';
import { freePort, ownedDir, queryOnce } from '../../test-support/src/pgProcesses.ts';

/** What the pooler serves: each database name clients ask for, the server's database and the login the pooler uses for it. */
export interface PooledDatabase {
  name: string;
  serverPort: number;
  serverDatabase: string;
  user: string;
}

/** A running PgBouncer. */
export interface PgBouncer {
  readonly port: number;
  /** A client's URL of `database` through the pooler, as `user`. */
  urlFor(database: string, user: string): string;
  /** Its log so far (refusals of startup parameters show here). */
  log(): string;
  stop(): Promise<void>;
}

/** PgBouncer's own settings beyond the databases. */
export interface PgBouncerOptions {
  poolMode: 'transaction' | 'session';
  /** Startup parameters it lets through and then drops (`ignore_startup_parameters`). */
  ignoreStartupParameters?: string[];
}

/** Starts PgBouncer in `dir` (created) in front of `databases`; resolves once it answers a query. */
export async function startPgBouncer(
  dir: string,
  databases: PooledDatabase[],
  options: PgBouncerOptions,
): Promise<PgBouncer> {
  ownedDir(dir); // the pooler writes its log here as the servers' user; it reads the files below, world-readable
  const port = await freePort();
  const users = [...new Set(databases.map((database) => database.user))];
  writeFileSync(join(dir, 'userlist.txt'), users.map((user) => `"${user}" ""\n`).join(''));
  const ini = [
    '[databases]',
    ...databases.map(
      (d) => `${d.name} = host=127.0.0.1 port=${d.serverPort} dbname=${d.serverDatabase} user=${d.user}`,
    ),
    '[pgbouncer]',
    'listen_addr = 127.0.0.1',
    `listen_port = ${port}`,
    'unix_socket_dir =',
    // The servers trust loopback (test-support's clusters); the pooler checks nothing either.
    'auth_type = trust',
    `auth_file = ${join(dir, 'userlist.txt')}`,
    `pool_mode = ${options.poolMode}`,
    'max_client_conn = 200',
    'default_pool_size = 10',
    `logfile = ${join(dir, 'pgbouncer.log')}`,
    ...(options.ignoreStartupParameters
      ? [`ignore_startup_parameters = ${options.ignoreStartupParameters.join(',')}`]
      : []),
  ];
  writeFileSync(join(dir, 'pgbouncer.ini'), `${ini.join('\n')}\n`);
  const { runAs } = pgBinaries();
  // Debian installs it in /usr/sbin, which a user's PATH may lack.
  const binary = existsSync('/usr/sbin/pgbouncer') ? '/usr/sbin/pgbouncer' : 'pgbouncer';
  const child: ChildProcess = spawn(binary, [join(dir, 'pgbouncer.ini')], {
    stdio: 'ignore',
    ...(runAs ? { uid: runAs.uid, gid: runAs.gid } : {}),
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const log = () => {
    try {
      return readFileSync(join(dir, 'pgbouncer.log'), 'utf8');
    } catch {
      return '';
    }
  };
  const self: PgBouncer = {
    port,
    urlFor: (database, user) => `postgres://${user}@127.0.0.1:${port}/${database}`,
    log,
    stop: async () => {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGINT');
      await exited;
    },
  };
  for (let attempt = 0; ; attempt++) {
    try {
      await queryOnce(self.urlFor(databases[0]!.name, databases[0]!.user), 'SELECT 1');
      return self;
    } catch (error) {
      if (attempt >= 100 || child.exitCode !== null) {
        await self.stop();
        throw new Error(`pgbouncer did not start: ${String(error)}\n${log()}`);
      }
      await sleep(100);
    }
  }
}
