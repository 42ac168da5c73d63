/**
 * The capacity measurement behind adr/0061 (`npm run ops:capacity`; not in CI): what one
 * deposit costs PostgreSQL. A throwaway primary with durable settings (fsync, synchronous
 * commit, full-page writes on), the API on it, `CLIENTS` customers each sending deposits to
 * their own account for `SECONDS`. Reads PostgreSQL's own CPU time from /proc (the
 * postmaster and every child), so the figure holds on a machine the load generator and the
 * API share: deposits per second of one PostgreSQL core, WAL and disk per deposit.
 * `CAPACITY_CLIENTS` (16) and `CAPACITY_SECONDS` (20) set its size.
 */
import { readFileSync } from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';
import { startApi, type ApiProcess } from '../../test-support/src/apiProcess.ts';
import { startPrimary, type PgCluster } from '../../test-support/src/pgCluster.ts';
import { queryOnce } from '../../test-support/src/pgProcesses.ts';
import { signUpCustomers, type Sent } from './drillSupport.ts';

const CLIENTS = Number(process.env.CAPACITY_CLIENTS ?? 16);
const SECONDS = Number(process.env.CAPACITY_SECONDS ?? 20);
const TICKS_PER_SECOND = 100; // Linux's USER_HZ

/** CPU seconds (user + system) the server's processes used so far. */
function cpuSeconds(cluster: PgCluster): number {
  let ticks = 0;
  for (const pid of cluster.pids()) {
    try {
      const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      ticks += Number(fields[11]) + Number(fields[12]); // utime, stime
    } catch {
      // a backend that ended between the listing and the read
    }
  }
  return ticks / TICKS_PER_SECOND;
}

const started: { cluster?: PgCluster; api?: ApiProcess } = {};
try {
  const cluster = (started.cluster = await startPrimary({
    settings: {
      fsync: 'on',
      synchronous_commit: 'on',
      full_page_writes: 'on',
      shared_buffers: '128MB',
      max_connections: '100',
    },
  }));
  const url = cluster.urlFor('tidewater');
  const api = (started.api = await startApi({ DATABASE_URL: url, LOG_LEVEL: 'warn', API_WORKERS: '2' }));
  const customers = await signUpCustomers(api.url, CLIENTS);
  const probe = async () =>
    (
      await queryOnce<{ lsn: string; size: string }>(
        url,
        'SELECT pg_current_wal_lsn()::text AS lsn, pg_database_size(current_database())::text AS size',
      )
    )[0]!;
  const walBytes = async (from: string, to: string) =>
    Number(
      (
        await queryOnce<{ bytes: string }>(url, `SELECT pg_wal_lsn_diff('${to}', '${from}')::text AS bytes`)
      )[0]!.bytes,
    );

  const sent: Sent[] = [];
  let running = true;
  const load = Promise.all(
    customers.map(async (customer) => {
      while (running) sent.push(await customer.deposit(100));
    }),
  );
  await sleep(3_000); // warm: connections open, statements prepared
  const before = { count: sent.length, cpu: cpuSeconds(cluster), at: performance.now(), ...(await probe()) };
  await sleep(SECONDS * 1000);
  const after = { count: sent.length, cpu: cpuSeconds(cluster), at: performance.now(), ...(await probe()) };
  running = false;
  await load;

  const deposits = after.count - before.count;
  const created = sent.slice(before.count, after.count).filter((s) => s.status === 201).length;
  const pgCpu = after.cpu - before.cpu;
  const seconds = (after.at - before.at) / 1000;
  console.log('capacity: one PostgreSQL primary, deposits');
  console.log(
    `  clients: ${CLIENTS}; seconds: ${seconds.toFixed(1)}; deposits answered: ${deposits} (201: ${created})`,
  );
  console.log(`  deposits/s (wall, this shared machine): ${(deposits / seconds).toFixed(0)}`);
  console.log(`  PostgreSQL CPU seconds: ${pgCpu.toFixed(1)} (${(pgCpu / seconds).toFixed(2)} cores busy)`);
  console.log(`  deposits per PostgreSQL core-second: ${(created / pgCpu).toFixed(0)}`);
  console.log(`  WAL bytes per deposit: ${((await walBytes(before.lsn, after.lsn)) / created).toFixed(0)}`);
  console.log(
    `  database growth bytes per deposit: ${((Number(after.size) - Number(before.size)) / created).toFixed(0)}`,
  );
} catch (error) {
  console.error('the capacity measurement could not finish:', error);
  process.exitCode = 1;
} finally {
  await started.api?.stop().catch(() => undefined);
  await started.cluster?.destroy().catch(() => undefined);
}
