/**
 * A streaming replica's data directory, made the way PostgreSQL's manual "low level base
 * backup" does it (docs: "Making a Base Backup Using the Low Level API"), with nothing but
 * a SQL connection and file copies: npm's PostgreSQL has no `pg_basebackup`.
 *
 * 1. On one session of the primary, `pg_backup_start(label, fast => true)` (forces full-page
 *    writes while the copy runs, so a page torn by the copy is repaired by replay).
 * 2. Copy the data directory, leaving out what the docs say to leave out (`postmaster.pid`,
 *    `pg_wal/`'s contents, `pg_replslot/`, temporary and statistics files …).
 * 3. `pg_backup_stop()` on the same session; write its `labelfile` as `backup_label` (and
 *    `spcmapfile`, if any, as `tablespace_map`) into the copy.
 * 4. Copy the WAL segments from the backup's start to its stop, so the copy is consistent
 *    on its own (the primary's `wal_keep_size` also keeps them for streaming).
 * 5. `standby.signal` and `primary_conninfo`: at start it replays, then streams from the primary.
 */
import { chownSync, copyFileSync, lchownSync, mkdirSync, readdirSync, readlinkSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import pg from 'pg';

/** Directories whose contents are left out (each is created empty in the copy). */
const EMPTY_DIRS = new Set(['pg_wal', 'pg_replslot', 'pg_dynshmem', 'pg_notify', 'pg_serial', 'pg_snapshots', 'pg_stat_tmp', 'pg_subtrans']);
/** Top-level files left out. */
const SKIP_FILES = new Set(['postmaster.pid', 'postmaster.opts', 'backup_label', 'tablespace_map', 'standby.signal', 'recovery.signal']);
/** Gives a copied path to the servers' user (when we are root); `link`: the symlink itself. */
type Own = (path: string, link?: boolean) => void;
const skipped = (name: string) => name.startsWith('pgsql_tmp') || name === 'pg_internal.init';

/** Where to copy from and to, the primary's address, and who must own the copy. */
export interface BaseBackupOptions {
  /** The primary's data directory. */
  from: string;
  /** The replica's data directory (created; must not exist yet). */
  to: string;
  /** The primary, as a postgres:// URL (a superuser; trust auth). */
  primaryUrl: string;
  /** The primary's `host` and `port` as the replica reaches it. */
  primary: { host: string; port: number };
  /** When we are root: the servers' user, who must own every copied file. */
  owner?: { uid: number; gid: number };
}

/** Makes `to` a standby of the primary at `from`; the caller then starts it. */
export async function baseBackup(options: BaseBackupOptions): Promise<void> {
  const { from, to, owner } = options;
  const own: Own = (path, link = false) => owner && (link ? lchownSync : chownSync)(path, owner.uid, owner.gid);
  const client = new pg.Client(options.primaryUrl);
  client.on('error', () => undefined); // a failed query rejects too
  await client.connect();
  try {
    const [start] = (await client.query<{ lsn: string }>("SELECT pg_backup_start('tidewater replica', true) AS lsn")).rows;
    copyTree(from, to, own, true);
    const [stop] = (
      await client.query<{ lsn: string; labelfile: string; spcmapfile: string | null }>(
        'SELECT lsn, labelfile, spcmapfile FROM pg_backup_stop(false)',
      )
    ).rows;
    writeOwned(join(to, 'backup_label'), stop!.labelfile, own);
    if (stop!.spcmapfile) writeOwned(join(to, 'tablespace_map'), stop!.spcmapfile, own);
    const names = await client.query<{ first: string; last: string }>(
      'SELECT pg_walfile_name($1::pg_lsn) AS first, pg_walfile_name($2::pg_lsn) AS last',
      [start!.lsn, stop!.lsn],
    );
    const { first, last } = names.rows[0]!;
    for (const name of readdirSync(join(from, 'pg_wal'))) {
      const segment = /^[0-9A-F]{24}$/.test(name) && name >= first && name <= last;
      if (segment || name.endsWith('.history')) copyOne(join(from, 'pg_wal', name), join(to, 'pg_wal', name), own);
    }
  } finally {
    await client.end().catch(() => undefined);
  }
  writeOwned(join(to, 'standby.signal'), '', own);
  const conninfo = `host=${options.primary.host} port=${options.primary.port} user=postgres application_name=tidewater_replica`;
  writeOwned(join(to, 'postgresql.auto.conf'), `primary_conninfo = '${conninfo}'\n`, own, 'a');
}

function writeOwned(path: string, text: string, own: Own, flag: 'w' | 'a' = 'w'): void {
  writeFileSync(path, text, { flag, mode: 0o600 });
  own(path);
}

/** A file that vanished while we copied (a dropped relation, a removed temp file) is simply not copied. */
function copyOne(source: string, target: string, own: Own): void {
  try {
    copyFileSync(source, target);
    own(target);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
}

/** Copies `source` into `target` (mode 0700 directories), leaving out the files above. */
function copyTree(source: string, target: string, own: Own, top: boolean): void {
  mkdirSync(target, { mode: 0o700 });
  own(target);
  let entries;
  try {
    entries = readdirSync(source, { withFileTypes: true });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return;
    throw error;
  }
  for (const entry of entries) {
    const [from, to] = [join(source, entry.name), join(target, entry.name)];
    if (skipped(entry.name) || (top && SKIP_FILES.has(entry.name))) continue;
    if (entry.isSymbolicLink()) {
      // pg_tblspc/OID → a tablespace elsewhere (none in these tests): keep the link as it is.
      symlinkSync(readlinkSync(from), to);
      own(to, true);
    } else if (entry.isDirectory()) {
      if (top && EMPTY_DIRS.has(entry.name)) {
        mkdirSync(to, { mode: 0o700 });
        own(to);
        if (entry.name === 'pg_wal') {
          mkdirSync(join(to, 'archive_status'), { mode: 0o700 });
          own(join(to, 'archive_status'));
        }
      } else {
        copyTree(from, to, own, false);
      }
    } else if (entry.isFile()) {
      copyOne(from, to, own);
    }
  }
}
