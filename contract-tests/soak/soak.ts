/**
 * The bank-invariant soak (adr/0011; Jepsen's "bank" workload is the model): many clients
 * send money through the real API (or the real BFF) while a nemesis stops, crashes, hangs,
 * ends and resets PostgreSQL beneath them; then the database is asked whether every
 * promise held (invariants.ts).
 *
 * The cluster is the soak's own (synchronous_commit on: a crash must not take back a
 * commit the API was told of); the API reaches it through a TCP proxy (resets) on the
 * scaled timeout chain with a 4 s deadline, and reads from a streaming replica with
 * fallback when `replica` is set.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { startBff, type BffProcess } from '@tidewater/test-support/bffProcess';
import { startPrimary, startReplica, type PgCluster } from '@tidewater/test-support/pgCluster';
import { startScaledApi } from '../support/scaledApi.ts';
import { startTcpProxy, type TcpProxy } from '@tidewater/test-support/tcpProxy';
import { uniqueHandle } from '@tidewater/test-support/handles';
import { soakClient, type Recorded, type SoakCustomer } from './clients.ts';
import { checkInvariants } from './invariants.ts';
import { nemesis, type FaultWindow } from './nemesis.ts';
import { seeded } from './random.ts';
import { resultsDir, type SoakReport } from './report.ts';
import { scrapeEvery } from './scrapes.ts';
import { apiTransport, bffTransport, type Identity } from './transport.ts';

/** A run's size and shape. */
export interface SoakOptions {
  clients: number;
  /** Operations at least (sends and replays): the clients keep going until both these and the faults are done. */
  ops: number;
  faults: number;
  seed: number;
  replica: boolean;
  viaBff: boolean;
  /** API processes under one primary (API_WORKERS; with several, read-your-writes marks live in the database, adr/0016). */
  workers: number;
  /** Progress lines (stderr by default). */
  log?: (line: string) => void;
}

export const DATABASE = 'tidewater';
export const DEADLINE_MS = 4_000;
/** The API's chain for the soak: the scaled one, with room for the sign-ups' password hashing under load. */
export const API_ENV = {
  REQUEST_DEADLINE_MS: String(DEADLINE_MS),
  IDEMPOTENCY_STALE_AFTER_MS: String(DEADLINE_MS + 60_000),
  BFF_UPSTREAM_TIMEOUT_MS: '10000',
  DB_POOL_MAX: '16',
  LOG_LEVEL: 'warn',
};
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Runs `work` over `items`, at most `limit` at a time. */
export async function inBatches<T, R>(items: readonly T[], limit: number, work: (item: T) => Promise<R>): Promise<R[]> {
  const results: R[] = [];
  for (let i = 0; i < items.length; i += limit) results.push(...(await Promise.all(items.slice(i, i + limit).map(work))));
  return results;
}

/** Runs one soak; answers its report (the checks inside it). Throws only when the harness itself fails. */
export async function runSoak(options: SoakOptions): Promise<SoakReport> {
  const log = options.log ?? ((line: string) => process.stderr.write(`${line}\n`));
  const random = seeded(options.seed);
  const teardown: Array<() => Promise<unknown>> = [];
  try {
    const primary: PgCluster = await startPrimary({ settings: { synchronous_commit: 'on', max_connections: '200' } });
    teardown.push(() => primary.destroy());
    const replica = options.replica ? await startReplica(primary) : undefined;
    if (replica) teardown.push(() => replica.destroy());
    const proxy: TcpProxy = await startTcpProxy({ host: '127.0.0.1', port: primary.port });
    teardown.push(() => proxy.close());
    const api = await startScaledApi(proxy.urlFor(primary.urlFor(DATABASE)), {
      ...API_ENV,
      API_WORKERS: String(options.workers),
      ...(replica ? { DATABASE_REPLICA_URL: replica.urlFor(DATABASE), DATABASE_REPLICA_FALLBACK: '1' } : {}),
    });
    teardown.push(() => api.stop());
    let bff: BffProcess | undefined;
    if (options.viaBff) {
      bff = await startBff({ apiUrl: api.url, env: { BFF_UPSTREAM_TIMEOUT_MS: API_ENV.BFF_UPSTREAM_TIMEOUT_MS, LOG_LEVEL: 'warn' } });
      teardown.push(() => bff!.stop());
    }
    const clientTimeoutMs = DEADLINE_MS + 10_000;

    log(`soak: signing up ${options.clients} customers${bff ? ' through the BFF' : ''}`);
    const tag = `${Date.now().toString(36)}${random.int(0, 1295).toString(36)}`;
    const customers: SoakCustomer[] = await inBatches(Array.from({ length: options.clients }, (_, i) => i), 4, async (index) => {
      // A sign-up's password hash can outlast the scaled deadline on a loaded machine: a new visitor a second later, as a person would.
      const { who, transport, userId } = await (async () => {
        for (let attempt = 0; ; attempt++) {
          const who: Identity = { email: `soak${tag}${index}r${attempt}@example.com`, password: 'correct horse battery', displayName: `Soak ${index}`, handle: uniqueHandle('soak'), pin: '2468' };
          try {
            return { who, ...(bff ? await bffTransport(bff.url, who, clientTimeoutMs) : await apiTransport(api.url, who, clientTimeoutMs)) };
          } catch (error) {
            if (attempt >= 5 || !/answered 503/.test(String(error))) throw error;
            await sleep(1_000);
          }
        }
      })();
      const accounts = await transport.send('GET', '/api/accounts');
      const everyday = (accounts.body as { items: Array<{ id: string }> }).items[0]!.id;
      const savings = await transport.send('POST', '/api/accounts', { body: { name: 'Savings' } });
      if (savings.status !== 201) throw new Error(`opening an account answered ${savings.status}`);
      return { index, userId, handle: who.handle, pin: who.pin, accounts: [everyday, (savings.body as { id: string }).id], transport };
    });

    const recorded: Recorded = { requests: [], keys: new Map(), replayMismatches: [] };
    const clients = customers.map((customer) => soakClient(customer, customers.filter((other) => other !== customer), random.fork(), recorded));
    await Promise.all(clients.map((client) => client.open()));

    const faults: FaultWindow[] = [];
    const chaos = nemesis(
      { primary, replica, proxy, database: DATABASE, hangMs: DEADLINE_MS + 1_000, partitionMs: DEADLINE_MS * 1.5, faultMs: [800, 2_500], quietMs: [1_500, 3_500] },
      random.fork(),
    );
    log(`soak: ${options.clients} clients, at least ${options.ops} operations, ${options.faults} faults (${chaos.kinds.join(', ')}), seed ${options.seed}`);
    const startedAt = Date.now();
    const scraping = scrapeEvery(api.metricsUrl);
    let nemesisDone = false;
    let operations = 0;
    const progress = setInterval(() => log(`soak: ${Math.round((Date.now() - startedAt) / 1000)} s, ${operations} operations, ${faults.length}/${options.faults} faults`), 10_000);
    const stop = () => nemesisDone && operations >= options.ops;
    const running = clients.map(async (client) => {
      await client.run(() => stop(), () => (operations += 1));
    });
    try {
      await chaos.run(options.faults, faults);
    } finally {
      nemesisDone = true;
      await chaos.healAll();
    }
    await Promise.all(running);
    clearInterval(progress);
    const endedAt = Date.now();
    const scrapes = await scraping.stop();

    // Back to health before asking: the API answers again, and the books are quiet.
    for (const giveUpAt = Date.now() + 30_000; Date.now() < giveUpAt; await sleep(200)) {
      const ready = await fetch(`${api.url}/api/ready`).then((r) => r.status === 200, () => false);
      if (ready) break;
    }
    const alive = (child: { exitCode: number | null; signalCode: string | null }) => child.exitCode === null && child.signalCode === null;
    const checks = await checkInvariants({
      databaseUrl: primary.urlFor(DATABASE),
      requests: recorded.requests,
      keys: recorded.keys,
      replayMismatches: recorded.replayMismatches,
      faults,
      deadlineMs: DEADLINE_MS,
      alive: { API: alive(api.child), ...(bff ? { BFF: alive(bff.child) } : {}) },
    });
    mkdirSync(resultsDir, { recursive: true });
    writeFileSync(`${resultsDir}soak-api.log`, `${api.logLines.join('\n')}\n`);
    if (bff) writeFileSync(`${resultsDir}soak-bff.log`, `${bff.logLines.join('\n')}\n`);
    const { log: _log, ...shown } = options;
    return { options: shown, startedAt, endedAt, operations, requests: recorded.requests, faults, checks, scrapes };
  } finally {
    for (const undo of teardown.reverse()) await undo().catch(() => undefined);
  }
}
