/**
 * The full-disk drill (`npm run ops:full-disk-drill`, adr/0058, docs/operations.md): the
 * bank's tables on a small tmpfs (a tablespace; WAL stays on the ordinary disk, as an
 * operator who keeps `pg_wal` apart has it), deposits from a few clients, then the tmpfs
 * filled to its last byte with a ballast file. PostgreSQL refuses what needs a new page
 * with SQLSTATE 53100 ("could not extend file"); the API must answer 503 with Retry-After,
 * never 500, and `/api/ready` 503. The ballast is removed: sends succeed again with no
 * restart. Checked from the database: every 201 has its ledger row, no key moved twice,
 * a 503 that said `applied: false` moved nothing until its resend, every resend answered,
 * and the audit chains verify. Prints its figures; exits 1 when a check fails.
 *
 * Needs root (mount) and PostgreSQL's binaries; starts everything on loopback in
 * throwaway directories and removes them, also when it fails.
 */
import { execFileSync } from 'node:child_process';
import {
  chmodSync,
  chownSync,
  closeSync,
  mkdirSync,
  mkdtempSync,
  openSync,
  rmSync,
  writeSync,
} from 'node:fs';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { startApi, type ApiProcess } from '../../test-support/src/apiProcess.ts';
import { scrapeMetrics, sumOf } from '../../test-support/src/metrics.ts';
import { pgBinaries } from '../../test-support/src/pgBinaries.ts';
import { startPrimary, type PgCluster } from '../../test-support/src/pgCluster.ts';
import { queryOnce } from '../../test-support/src/pgProcesses.ts';
import {
  auditVerify,
  check,
  signUpCustomers,
  type Customer,
  type Sent,
  type Summary,
  report,
  ledgerRowsByKey,
  ledgerChecks,
} from './drillSupport.ts';

const CLIENTS = 4;
const TMPFS_SIZE = '48m';
/** How long the disk stays full once the API has answered the first 503 for it. */
const FULL_FOR_MS = 5_000;
/** No phase waits longer than this for what it expects. */
const PHASE_LIMIT_MS = 30_000;

/** Fills the file system under `path` to its last byte; answers the bytes written. */
function fillUp(path: string): number {
  const chunk = Buffer.alloc(1 << 20);
  const fd = openSync(path, 'w');
  let written = 0;
  try {
    for (let size = chunk.length; size >= 512;) {
      try {
        written += writeSync(fd, chunk, 0, size);
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'ENOSPC') throw error;
        size >>= 1; // the last megabyte goes in smaller pieces, down to one sector
      }
    }
  } finally {
    closeSync(fd);
  }
  return written;
}

async function waitUntil(what: string, condition: () => boolean): Promise<void> {
  const until = performance.now() + PHASE_LIMIT_MS;
  while (!condition()) {
    if (performance.now() > until) throw new Error(`gave up waiting for ${what}`);
    await sleep(50);
  }
}

async function drill(root: string): Promise<Summary> {
  const space = join(root, 'space');
  mkdirSync(space);
  execFileSync('mount', ['-t', 'tmpfs', '-o', `size=${TMPFS_SIZE},mode=0700`, 'tidewater-full-disk', space]);
  const started: { cluster?: PgCluster; api?: ApiProcess; load?: Promise<unknown> } = {};
  let running = true;
  try {
    const { runAs } = pgBinaries();
    if (runAs) chownSync(space, runAs.uid, runAs.gid);
    const cluster = (started.cluster = await startPrimary({ dir: join(root, 'pg') }));
    // Before the API's migrations: every table of the bank then lives on the tmpfs.
    await queryOnce(cluster.url, `CREATE TABLESPACE nearly_full LOCATION '${space}'`);
    await queryOnce(cluster.url, 'ALTER DATABASE tidewater SET TABLESPACE nearly_full');
    const url = cluster.urlFor('tidewater');
    const api = (started.api = await startApi({ DATABASE_URL: url, LOG_LEVEL: 'warn' }));
    const customers = await signUpCustomers(api.url, CLIENTS);

    const counted = async () =>
      sumOf(await scrapeMetrics(api.metricsUrl), 'tidewater_unavailable_total', {
        cause: 'insufficient_resources',
      });
    const countedBefore = await counted();
    const sent: Sent[] = [];
    const readiness: { at: number; status: number }[] = [];
    const client = async (customer: Customer) => {
      while (running) sent.push(await customer.deposit(100));
    };
    const ready = async () => {
      while (running) {
        const status = await fetch(`${api.url}/api/ready`).then(
          (reply) => reply.status,
          () => 0,
        );
        readiness.push({ at: performance.now(), status });
        await sleep(200);
      }
    };
    const load = (started.load = Promise.all([...customers.map(client), ready()]));

    await sleep(2_000);
    const filledAt = performance.now();
    const ballast = join(space, 'ballast');
    const ballastBytes = fillUp(ballast);
    // A refusal, whatever its status: the checks below say whether it was the right one.
    const refusedSince = (s: Sent) => s.at > filledAt && s.status !== 201;
    await waitUntil('a refused send once the disk was full', () => sent.some(refusedSince));
    const firstRefusalAt = sent.find(refusedSince)!.at;
    await sleep(FULL_FOR_MS);
    const freedAt = performance.now();
    rmSync(ballast);
    await waitUntil('a 201 after space returned', () => sent.some((s) => s.at > freedAt && s.status === 201));
    await waitUntil('/api/ready 200 after space returned', () =>
      readiness.some((r) => r.at > freedAt && r.status === 200),
    );
    await sleep(2_000);
    running = false;
    await load;

    const ledgerKeys = async () =>
      new Set(
        (
          await queryOnce<{ key: string }>(url, 'SELECT DISTINCT idempotency_key AS key FROM ledger_entries')
        ).map((row) => row.key),
      );
    const movedBeforeResend = await ledgerKeys();
    const countedWhileFull = (await counted()) - countedBefore;
    // A 503 is an outage: the client resends it under the same key, as the docs say.
    const resent: Sent[] = [];
    for (const refused of sent.filter((s) => s.status !== 201)) resent.push(await refused.resend());

    const rowsOf = await ledgerRowsByKey(url);
    const acknowledged = [...sent, ...resent].filter((s) => s.status === 201);
    const whileFull = sent.filter((s) => s.at > firstRefusalAt && s.at < freedAt);
    const readyWhileFull = readiness.filter((r) => r.at > firstRefusalAt && r.at < freedAt);
    const firstCreatedAfter = sent.find((s) => s.at > freedAt && s.status === 201)!.at;
    const firstReadyAfter = readiness.find((r) => r.at > freedAt && r.status === 200)!.at;
    const count = (list: Sent[], status: number) => list.filter((s) => s.status === status).length;
    const checks = [
      check(
        'no 500 (nor any status but 201 and 503)',
        [...sent, ...resent]
          .filter((s) => s.status !== 201 && s.status !== 503)
          .map((s) => `${s.key}: ${s.status} ${s.errorCode}`),
      ),
      check(
        'the disk was really full: 503s came while it was',
        count(whileFull, 503) > 0 ? [] : ['no 503 while the disk was full'],
      ),
      check(
        'every 503 says Retry-After and no-store',
        sent.filter((s) => s.status === 503 && !(s.retryAfter && s.noStore)).map((s) => s.key),
      ),
      ...ledgerChecks('every 201 is in the ledger, once', acknowledged, rowsOf),
      check(
        'a 503 that said applied: false moved nothing',
        sent
          .filter((s) => s.status === 503 && s.applied === false && movedBeforeResend.has(s.key))
          .map((s) => s.key),
      ),
      check(
        'every resend of a refusal answered 201',
        resent.filter((s) => s.status !== 201).map((s) => `${s.key}: ${s.status} ${s.errorCode}`),
      ),
      check(
        'every 503 of a deposit counted as insufficient_resources in /metrics',
        countedWhileFull === count(sent, 503)
          ? []
          : [`${countedWhileFull} counted, ${count(sent, 503)} answered`],
      ),
      check(
        '/api/ready answered 503 while the disk was full',
        readyWhileFull.some((r) => r.status === 503) ? [] : ['ready stayed 200'],
      ),
      check('the audit chains verify', await auditVerify(url)),
    ];
    return {
      figures: {
        'tmpfs size': TMPFS_SIZE,
        'ballast bytes': ballastBytes,
        'deposits sent': sent.length,
        'answered 201': count(sent, 201),
        'answered 503': count(sent, 503),
        'of them applied: false / unknown': `${sent.filter((s) => s.status === 503 && s.applied === false).length} / ${sent.filter((s) => s.status === 503 && s.applied === undefined).length}`,
        'unknown ones that had moved before their resend': sent.filter(
          (s) => s.status === 503 && s.applied === undefined && movedBeforeResend.has(s.key),
        ).length,
        'answered 500': count(sent, 500),
        'tidewater_unavailable_total{cause="insufficient_resources"}': countedWhileFull,
        'seconds from full to the first refusal': ((firstRefusalAt - filledAt) / 1000).toFixed(2),
        '/api/ready 503 / checks while full': `${readyWhileFull.filter((r) => r.status === 503).length} / ${readyWhileFull.length}`,
        'seconds from space back to the first 201': ((firstCreatedAfter - freedAt) / 1000).toFixed(2),
        'seconds from space back to /api/ready 200': ((firstReadyAfter - freedAt) / 1000).toFixed(2),
        'refusals resent / answered 201': `${resent.length} / ${count(resent, 201)}`,
        'acknowledged / found in the ledger': `${acknowledged.length} / ${acknowledged.filter((s) => rowsOf.get(s.key) === 1).length}`,
      },
      checks,
    };
  } finally {
    running = false;
    await started.load?.catch(() => undefined);
    await started.api?.stop().catch(() => undefined);
    await started.cluster?.destroy().catch(() => undefined);
    execFileSync('umount', ['--lazy', space]);
  }
}

const root = mkdtempSync('/tmp/tidewater-full-disk-');
chmodSync(root, 0o755); // the servers' user walks through it to its cluster
const began = performance.now();
try {
  report('the full-disk drill', 'full-disk-drill', await drill(root), (performance.now() - began) / 1000);
} catch (error) {
  console.error('the full-disk drill could not finish:', error);
  report('the full-disk drill', 'full-disk-drill', undefined, (performance.now() - began) / 1000);
} finally {
  rmSync(root, { recursive: true, force: true });
}
