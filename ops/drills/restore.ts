/**
 * The restore drill (`npm run ops:restore-drill`, adr/0063, docs/operations.md): a
 * throwaway primary archiving its WAL with pgBackRest (the shipped
 * `ops/pgbackrest/pgbackrest.conf`, only its paths and port changed), a full backup, the
 * API on it and four customers sending deposits throughout; a named time taken in the
 * middle of the sends; then a restore to that time into a fresh cluster. Checked on the
 * copy: every deposit acknowledged before the time is there, none sent after it is, and
 * `audit:verify` passes. Prints its figures; exits 1 when a check fails.
 */
import { execFile } from 'node:child_process';
import { chmodSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { startApi, type ApiProcess } from '../../test-support/src/apiProcess.ts';
import { pgBinaries } from '../../test-support/src/pgBinaries.ts';
import { startPrimary, type PgCluster } from '../../test-support/src/pgCluster.ts';
import {
  configure,
  ownedDir,
  pgCtl,
  queryOnce,
  startOnFreePort,
  waitFor,
} from '../../test-support/src/pgProcesses.ts';
import { auditVerify, check, signUpCustomers, type Sent, type Summary, report } from './drillSupport.ts';

const run = promisify(execFile);
const CLIENTS = 4;
const STANZA = 'tidewater';
/** Sends before the named time, and after it. */
const PHASE_MS = 6_000;

/** The shipped configuration with this drill's paths and port. */
function pgbackrestConfig(dir: string, primary: PgCluster): string {
  const shipped = readFileSync(
    fileURLToPath(new URL('../pgbackrest/pgbackrest.conf', import.meta.url)),
    'utf8',
  );
  const local: Record<string, string> = {
    'repo1-path': ownedDir(join(dir, 'repo')),
    'spool-path': ownedDir(join(dir, 'spool')),
    'log-path': ownedDir(join(dir, 'log')),
    'pg1-path': join(primary.dir, 'data'),
    'pg1-port': String(primary.port),
    'pg1-socket-path': join(primary.dir, 'sock'),
  };
  const file = join(dir, 'pgbackrest.conf');
  writeFileSync(
    file,
    shipped.replace(/^([a-z0-9-]+)=.*$/gm, (line, key: string) =>
      key in local ? `${key}=${local[key]}` : line,
    ),
  );
  return file;
}

async function drill(dir: string): Promise<Summary> {
  const started: { primary?: PgCluster; api?: ApiProcess; load?: Promise<unknown>; copy?: string } = {};
  let running = true;
  try {
    const primary = (started.primary = await startPrimary({ dir: join(dir, 'primary') }));
    const config = pgbackrestConfig(dir, primary);
    const pgbackrest = (...args: string[]) =>
      run('pgbackrest', [`--config=${config}`, `--stanza=${STANZA}`, ...args], {
        ...pgBinaries().runAs,
        cwd: '/',
      });
    configure(join(primary.dir, 'data'), {
      archive_mode: 'on',
      archive_command: `pgbackrest --config=${config} --stanza=${STANZA} archive-push %p`,
    });
    await primary.stop();
    await primary.start(); // archive_mode takes a restart
    await pgbackrest('stanza-create');
    await pgbackrest('check');
    let backupAt = performance.now();
    await pgbackrest('--type=full', 'backup');
    const backupSeconds = (performance.now() - backupAt) / 1000;

    const url = primary.urlFor('tidewater');
    const api = (started.api = await startApi({ DATABASE_URL: url, LOG_LEVEL: 'warn' }));
    const customers = await signUpCustomers(api.url, CLIENTS);
    const sent: Sent[] = [];
    started.load = Promise.all(
      customers.map(async (customer) => {
        while (running) sent.push(await customer.deposit(100));
      }),
    );
    await sleep(PHASE_MS);
    // The named time, as an operator writes it: the wall clock, which PostgreSQL's commit timestamps share here.
    const target = new Date();
    const targetAt = performance.now();
    await sleep(PHASE_MS);
    running = false;
    await started.load;
    // Close the WAL segment holding the last sends, so the archive reaches past the target.
    const [closed] = await queryOnce<{ segment: string }>(
      url,
      'SELECT pg_walfile_name(pg_switch_wal()) AS segment',
    );
    await waitFor(
      'the last WAL segment to be archived',
      async () => {
        const [row] = await queryOnce<{ archived: string | null }>(
          url,
          'SELECT last_archived_wal AS archived FROM pg_stat_archiver',
        );
        return (row?.archived ?? '') >= (closed?.segment ?? '');
      },
      60_000,
      200,
    );
    // The primary is done; a disaster takes it.
    await started.api.stop();
    started.api = undefined;
    await primary.stop();

    const copy = (started.copy = ownedDir(join(dir, 'copy')));
    ownedDir(join(copy, 'sock'));
    backupAt = performance.now();
    await pgbackrest(
      `--pg1-path=${join(copy, 'data')}`,
      '--type=time',
      `--target=${target.toISOString().replace('T', ' ').replace('Z', '+00')}`,
      '--target-action=promote',
      'restore',
    );
    configure(join(copy, 'data'), { archive_mode: 'off' }); // the copy must not archive into the primary's stanza
    const copyPort = await startOnFreePort(copy);
    const copyUrl = `postgres://postgres@127.0.0.1:${copyPort}/tidewater`;
    await waitFor(
      'the copy to reach the named time and promote',
      async () => {
        const [row] = await queryOnce<{ recovering: boolean }>(
          copyUrl,
          'SELECT pg_is_in_recovery() AS recovering',
        );
        return row?.recovering === false;
      },
      120_000,
      200,
    );
    const restoreSeconds = (performance.now() - backupAt) / 1000;

    const present = new Set(
      (
        await queryOnce<{ key: string }>(
          copyUrl,
          'SELECT DISTINCT idempotency_key AS key FROM ledger_entries WHERE idempotency_key IS NOT NULL',
        )
      ).map((row) => row.key),
    );
    // The named time is written to the millisecond, commit timestamps to the microsecond: a send
    // acknowledged in the last millisecond before it may have committed after the written time.
    const writtenAt = targetAt - 1;
    const before = sent.filter((s) => s.status === 201 && s.at < writtenAt);
    const after = sent.filter((s) => s.sentAt > targetAt);
    const across = sent.filter((s) => s.sentAt <= targetAt && s.at >= writtenAt);
    return {
      figures: {
        'full backup seconds': backupSeconds.toFixed(1),
        'deposits sent / answered 201': `${sent.length} / ${sent.filter((s) => s.status === 201).length}`,
        'named time': target.toISOString(),
        'acknowledged before it / present in the copy': `${before.length} / ${before.filter((s) => present.has(s.key)).length}`,
        'sent after it / present in the copy': `${after.length} / ${after.filter((s) => present.has(s.key)).length}`,
        'in flight across it (either way is right)': across.length,
        'restore and recovery seconds': restoreSeconds.toFixed(1),
      },
      checks: [
        check(
          'sends continued while archiving: every send answered 201',
          sent.filter((s) => s.status !== 201).map((s) => `${s.key}: ${s.status} ${s.errorCode}`),
        ),
        check(
          'every send acknowledged before the named time is in the copy',
          before.filter((s) => !present.has(s.key)).map((s) => s.key),
        ),
        check(
          'no send made after the named time is in the copy',
          after.filter((s) => present.has(s.key)).map((s) => s.key),
        ),
        check(
          'the copy is no empty shell: sends before the time exist',
          before.length > 0 && after.length > 0 ? [] : ['no sends on one side of the time'],
        ),
        check("the copy's audit chains verify", await auditVerify(copyUrl)),
      ],
    };
  } finally {
    running = false;
    await started.load?.catch(() => undefined);
    await started.api?.stop().catch(() => undefined);
    await started.primary?.destroy().catch(() => undefined);
    if (started.copy) await pgCtl(started.copy, 'stop', 'immediate').catch(() => undefined);
  }
}

const dir = mkdtempSync('/tmp/tidewater-restore-');
chmodSync(dir, 0o755); // the servers' user walks through it to its clusters and repository
const began = performance.now();
try {
  report(
    'the restore drill (pgBackRest)',
    'restore-drill',
    await drill(dir),
    (performance.now() - began) / 1000,
  );
} catch (error) {
  console.error('the restore drill could not finish:', error);
  report('the restore drill (pgBackRest)', 'restore-drill', undefined, (performance.now() - began) / 1000);
} finally {
  if (process.env.KEEP_DRILL_DIR) console.log(`kept ${dir}`);
  else rmSync(dir, { recursive: true, force: true });
}
