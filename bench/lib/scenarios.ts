/**
 * The scenarios of `npm run bench` (issue 15 item 1), each answering ratios against a
 * baseline measured in the same run, and absolute figures for the chart; and what they
 * share (the bench's database and API, deposits through it, warm-ups). limit is in
 * limitScenario.ts.
 */
import { availableParallelism } from 'node:os';
import { setTimeout as sleep } from 'node:timers/promises';
import pg from 'pg';
import { startApi, type ApiProcess } from '@tidewater/test-support/apiProcess';
import { scrapeMetrics, sumOf, type Sample } from '@tidewater/test-support/metrics';
import { endedQuietly } from '@tidewater/test-support/endedQuietly';
import { startPrimary, startReplica, type PgCluster } from '@tidewater/test-support/pgCluster';
import { SCALED_CHAIN } from '../../contract-tests/support/scaledApi.ts';
import { defaults } from '../../server/src/config.ts';
import { apiDeposit, benchSignUps, signUp, type ApiCustomer } from '../contention/apiPath.ts';
import { runContention, type Row } from '../contention/scenarios.ts';
import { openAccountsInSql } from '../limit/bareDeposit.ts';
import { startLayersOffApi } from '../overhead/layersOff.ts';
import { send } from './http.ts';
import { closedLoop, comparison, type CpuMeters, type LoadResult, type Operation } from './load.ts';
import { cpuMsOfProcess, cpuMsOfTrees } from './processCpu.ts';
import { median, ratio, ratioOf, type Figure, type ScenarioResult } from './report.ts';

/** How big a run is. */
export interface Size {
  clients: number;
  /** Seconds of load per measurement. */
  seconds: number;
  runs: number;
  contentionSizes: number[];
  /** Also time outages on the real default chain (a 40 s deadline: about two minutes). */
  realDefaults: boolean;
  /** The naive contention baseline starts no attempt after this long in a scenario (its opposite transfers deadlock, 1 s each). */
  naiveBudgetMs: number;
  /** The overhead scenario's A/A control: both sides with the layers on (`--control`). */
  control: boolean;
  /**
   * Seconds of full load that warm each fresh API process of the overhead scenario, per
   * operation, before it is measured: a fresh API spends about twice its settled CPU per
   * deposit over its first 10-15 s of load (V8's compilers, heap sizing), so a shorter warm-up
   * measures that slope, not the layers (bench/METHOD.md).
   */
  warmUpSeconds: number;
}

/**
 * What every API of the bench runs with: warn, so request logging is not what we measure;
 * and the API as deployed, one worker per core (the API's default, adr/0016), unless
 * API_WORKERS says otherwise.
 */
/** The API as deployed, but for its limits on sign-ups and open accounts (`benchSignUps`). */
export const apiEnv = { LOG_LEVEL: 'warn', API_WORKERS: process.env.API_WORKERS ?? String(availableParallelism()), ...benchSignUps };

/**
 * The bench's PostgreSQL settings beyond test-support's: room for two APIs of one worker
 * per core each (the overhead scenario runs layers on and off side by side) and the
 * baseline's pool, and a cache that holds the bench's data.
 */
const benchSettings = { max_connections: '200', shared_buffers: '128MB' };

/** The bank's database, the API on it and a customer with accounts. */
export interface Bench {
  cluster: PgCluster;
  databaseUrl: string;
  api: ApiProcess;
  pool: pg.Pool;
  customer: ApiCustomer;
  userId: string;
}

/** Starts the throwaway primary (test-support: fsync off) and the real API on it. */
export async function startBench(): Promise<Bench> {
  const cluster = await startPrimary({ settings: benchSettings });
  const databaseUrl = cluster.urlFor('tidewater');
  const api = await startApi({ ...apiEnv, DATABASE_URL: databaseUrl });
  // The API's pool size (DB_POOL_MAX), so the baseline has the same number of connections.
  const pool = endedQuietly(new pg.Pool({ connectionString: databaseUrl, max: defaults.dbPoolMax }));
  const customer = await signUp(api.url, 'bench');
  return { cluster, databaseUrl, api, pool, customer, userId: userIdOf(customer) };
}

/** The user id behind a customer's access token (its `sub` claim). */
export function userIdOf(customer: ApiCustomer): string {
  const claims = JSON.parse(Buffer.from(customer.token.split('.')[1]!, 'base64url').toString('utf8')) as { sub: string };
  return claims.sub;
}

/** A deposit of 100 through the API into `accountId()`, by `customer`. */
export const depositVia = (customer: ApiCustomer, accountId: () => string): Operation => async () => {
  const reply = await apiDeposit(customer, accountId(), 100);
  return reply.outcome === 'ok' ? true : `${reply.outcome} ${reply.detail ?? ''}`.trim();
};

/** `GET /api/accounts` with `token`: one operation of a load. */
export const listAccounts = (baseUrl: string, token: string): Operation => async () => {
  const { status } = await send(`${baseUrl}/api/accounts`, { headers: { authorization: `Bearer ${token}` } });
  return status === 200 ? true : `status ${status}`;
};

/** A random one of `ids`, per call. */
export const pick = (ids: string[]) => () => ids[Math.floor(Math.random() * ids.length)]!;
/** One load's result in a line of the scenario's notes. */
export const describe = (name: string, r: LoadResult) =>
  `${name}: ${r.throughput.toFixed(0)}/s, p50 ${r.p50.toFixed(1)} ms, p99 ${r.p99.toFixed(1)} ms${r.cpuMsPerOp === undefined ? '' : `, API CPU ${r.cpuMsPerOp.toFixed(2)} ms/op`}${r.databaseCpuMsPerOp === undefined ? '' : `, database CPU ${r.databaseCpuMsPerOp.toFixed(2)} ms/op`}, ok ${r.ok}, failed ${r.failed}${r.failures.length ? ` (${r.failures.join('; ')})` : ''}`;

/**
 * Warms a path up (JIT, pools, plans, prepared statements) so the first measurement is not
 * the cold one: the full load for a few seconds, as every worker of the API must see it.
 */
export async function warmUp(operation: Operation, size: Pick<Size, 'clients' | 'seconds'>): Promise<void> {
  await closedLoop(size.clients, Math.min(5, size.seconds) * 1000, operation);
}

/** Means of each absolute figure over the runs, for the chart. */
export function meanFigures(all: Figure[][]): Figure[] {
  return (all[0] ?? []).map((figure, i) => ({ ...figure, value: all.reduce((sum, run) => sum + run[i]!.value, 0) / all.length }));
}

/**
 * The overhead's APIs run one worker each, not one per core (bench/METHOD.md). A cluster's primary
 * gives each new connection to whichever worker is free to take it, so the bench's
 * keep-alive connections split unevenly between two workers (23/14, 19/15, 26/15 seen),
 * differently in every process: the clients of the fuller worker wait longer at the same
 * throughput and CPU. That moved the p50 of two identical APIs by up to 11 % in one run (A/A,
 * CPU 1.00), where one worker each kept the A/A runs within 0.97 to 1.04. The layers are
 * the same code in one worker as in two.
 */
const overheadWorkers = '1';

/**
 * overhead: the same API with its resilience layers passed through (bench/overhead/layersOffApi.ts)
 * against on (server/src/main.ts), for `GET /api/accounts` (a customer with two accounts) and a deposit spread over 200
 * accounts. Each run starts two
 * fresh pairs of processes on the same database, one on first and one off first (two
 * processes of the same code differ by a few per cent, and the order of starting showed
 * in them), and measures each pair side by side, in interleaved slices of `sliceMs`,
 * counting each process's CPU during its own slices; the pairs are pooled. A pair's GETs
 * and its deposits each take the whole time: four slices a side left a ratio to the
 * machine's drift from slice to slice (the GET's 1.055 / 1.07 in a run where the
 * layers cost it 1.3 % of its CPU side by side), and twice the slices halve that share of
 * its variance (bench/METHOD.md).
 * Overhead = on/off p50 and off/on throughput (1.0: free; target ≤ 1.05); the CPU per
 * operation on/off is reported beside them. `--control` starts both with the layers on:
 * an A/A run whose ratios show the method's own spread.
 */
export async function overheadScenario(bench: Bench, size: Size): Promise<ScenarioResult> {
  const sliceMs = 1_000;
  const { pool, customer, userId, databaseUrl } = bench;
  const accounts = await openAccountsInSql(pool, userId, 200, 'overhead');
  // The GET lists a customer of its own with two accounts (the issue's own first measure): the
  // bench customer owns hundreds by now, a listing of 5 to 9 ms of API CPU that hid the layers'
  // share per request and left a few GETs per client per slice, too few for a steady p50 (bench/METHOD.md).
  const reader = await signUpPatiently(customer.baseUrl, 'reader');
  await openAccountsInSql(pool, userIdOf(reader), 2, 'overhead read');
  const durationMs = size.seconds * 1000;
  const runs: Record<string, number[]> = {};
  const add = (name: string, value: number) => (runs[name] ??= []).push(value);
  const figures: Figure[][] = [];
  const notes: string[] = [];
  const backendCounts: string[] = [];
  for (let run = 0; run < size.runs; run++) {
    const gets = comparison();
    const deposits = comparison();
    for (const order of [['on', 'off'], ['off', 'on']] as const) {
      const started: Partial<Record<'on' | 'off', ApiProcess>> = {};
      try {
        for (const side of order) {
          // PGAPPNAME names the side's connections, so its PostgreSQL backends can be found and metered.
          // One process each: see overheadWorkers.
          const env = { ...apiEnv, API_WORKERS: overheadWorkers, DATABASE_URL: databaseUrl, PGAPPNAME: `bench-overhead-${side}` };
          started[side] = await (side === 'off' && !size.control ? startLayersOffApi(env) : startApi(env));
        }
        const { on, off } = started as Record<'on' | 'off', ApiProcess>;
        const getOn = listAccounts(on.url, reader.token);
        const getOff = listAccounts(off.url, reader.token);
        const depositOn = depositVia({ ...customer, baseUrl: on.url }, pick(accounts));
        const depositOff = depositVia({ ...customer, baseUrl: off.url }, pick(accounts));
        // Warmed side by side in the measurement's own alternation (results dropped): warmed
        // one after the other, the on side sat idle through the off side's warm-up and
        // measured about 10 % dearer per deposit, for a cause not isolated (bench/METHOD.md). The
        // GET warms for a third as long: the deposits after it run the code it shares
        // (auth, router, logging), and the default run must fit in 10 minutes.
        const warmUpMs = size.warmUpSeconds * 1000;
        if (warmUpMs > 0) {
          await comparison().measure(size.clients, warmUpMs / 3, sliceMs, getOn, getOff);
          await comparison().measure(size.clients, warmUpMs, sliceMs, depositOn, depositOff);
        }
        const backends = { on: backendMeter(pool, 'bench-overhead-on'), off: backendMeter(pool, 'bench-overhead-off') };
        const meters: CpuMeters = {
          api: [() => cpuMsOfTrees([on.child.pid!])[0]!, () => cpuMsOfTrees([off.child.pid!])[0]!],
          database: [backends.on.read, backends.off.read],
        };
        await gets.measure(size.clients, durationMs, sliceMs, getOn, getOff, meters);
        await deposits.measure(size.clients, durationMs, sliceMs, depositOn, depositOff, meters);
        backendCounts.push(`${backends.on.seen()} on, ${backends.off.seen()} off`);
      } finally {
        for (const server of Object.values(started)) await server.stop();
      }
    }
    const [getOn, getOff] = gets.results();
    const [depositOn, depositOff] = deposits.results();
    add('GET /api/accounts: p50 on/off', ratio(getOn.p50, getOff.p50));
    add('GET /api/accounts: throughput off/on', ratio(getOff.throughput, getOn.throughput));
    add('deposit: p50 on/off', ratio(depositOn.p50, depositOff.p50));
    add('deposit: throughput off/on', ratio(depositOff.throughput, depositOn.throughput));
    add('GET /api/accounts: API CPU per request on/off', ratio(getOn.cpuMsPerOp!, getOff.cpuMsPerOp!));
    add('deposit: API CPU per deposit on/off', ratio(depositOn.cpuMsPerOp!, depositOff.cpuMsPerOp!));
    add('GET /api/accounts: database CPU per request on/off', ratio(getOn.databaseCpuMsPerOp!, getOff.databaseCpuMsPerOp!));
    add('deposit: database CPU per deposit on/off', ratio(depositOn.databaseCpuMsPerOp!, depositOff.databaseCpuMsPerOp!));
    figures.push([
      { label: 'GET /api/accounts, layers on', value: getOn.throughput, unit: 'requests/s' },
      { label: 'GET /api/accounts, layers off', value: getOff.throughput, unit: 'requests/s' },
      { label: 'deposit, layers on', value: depositOn.throughput, unit: 'deposits/s' },
      { label: 'deposit, layers off', value: depositOff.throughput, unit: 'deposits/s' },
    ]);
    notes.push(`run ${run + 1}: ${describe('GET on', getOn)}; ${describe('GET off', getOff)}; ${describe('deposit on', depositOn)}; ${describe('deposit off', depositOff)}`);
  }
  const against = size.control ? 'CONTROL: the same API, layers on (A/A)' : 'layers off (bench/overhead/layersOffApi.ts)';
  return {
    name: 'overhead',
    // Every ratio recorded, in the order recorded; the CPU ratios are reported beside the targets, not targets themselves.
    ratios: Object.entries(runs).map(([name, values]) => ratioOf(name, values, against, name.includes(' CPU ') ? undefined : '≤ 1.05')),
    figures: meanFigures(figures),
    notes: [
      `GET: a customer with two accounts; two fresh pairs of APIs per run (on started first, then off first), one worker each, each warmed by ${+(size.warmUpSeconds / 3).toFixed(1)} s of GETs and ${size.warmUpSeconds} s of deposits, then on and off interleaved in slices of ${sliceMs} ms, for ${size.seconds} s of GETs and ${size.seconds} s of deposits each${size.control ? '; CONTROL run: both sides with the layers on' : ''}`,
      `the database CPU: PostgreSQL's backends of each side's connections (named by PGAPPNAME), found again at each slice; backends seen per pair: ${backendCounts.join('; ')}`,
      ...notes,
    ],
  };
}

/**
 * A cumulative CPU meter of the PostgreSQL server processes of the connections named
 * `applicationName`: each reading finds them again (a pool closes connections idle for
 * 30 s and opens new ones), counts a new one's CPU from its start (it was opened for this
 * side's load) and keeps the last reading of one that ended. `seen`: how many there were.
 */
export function backendMeter(pool: pg.Pool, applicationName: string): { read: () => Promise<number>; seen: () => number } {
  const last = new Map<number, number>();
  return {
    async read() {
      const { rows } = await pool.query<{ pid: number }>('SELECT pid FROM pg_stat_activity WHERE application_name = $1', [applicationName]);
      for (const { pid } of rows) last.set(pid, Math.max(last.get(pid) ?? 0, cpuMsOfProcess(pid)));
      let total = 0;
      for (const ms of last.values()) total += ms;
      return total;
    },
    seen: () => last.size,
  };
}

/** Signs up, again after a 503: on the scaled chain (2.5 s) a password hash on a loaded 2-core machine can miss the deadline. */
export async function signUpPatiently(url: string, label: string): Promise<ApiCustomer> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await signUp(url, label);
    } catch (error) {
      if (attempt >= 8 || !String(error).includes('503')) throw error;
      await sleep(1_000);
    }
  }
}

/** One request's answer and when it came, from `from` (ms since epoch). */
async function timed(url: string, token: string, clientTimeoutMs: number): Promise<{ status: number | undefined; ms: number }> {
  const started = Date.now();
  const status = await send(`${url}/api/accounts`, { headers: { authorization: `Bearer ${token}` }, timeoutMs: clientTimeoutMs }).then(
    (reply) => reply.status,
    () => undefined,
  );
  return { status, ms: Date.now() - started };
}

/** Polls until a 2xx; answers ms from `since`. */
async function firstSuccess(url: string, token: string, since: number, withinMs: number): Promise<number> {
  while (Date.now() - since < withinMs) {
    const { status } = await timed(url, token, 5_000);
    if (status !== undefined && status < 300) return Date.now() - since;
    await sleep(25);
  }
  return Number.NaN;
}

/**
 * outage timings on one chain, on a throwaway cluster of its own: database stopped → the
 * first 503, and the next one (the retry budget's case: see the note), database back →
 * the first 2xx; database hung (SIGSTOP) → the 503 at the deadline; resumed → first 2xx.
 */
async function outageOn(chain: 'scaled' | 'default'): Promise<{ ratios: Array<[string, number, string]>; figures: Figure[]; notes: string[] }> {
  const env: Record<string, string> = chain === 'scaled' ? { ...SCALED_CHAIN, LOG_LEVEL: 'warn' } : { ...apiEnv };
  const deadlineMs = Number(env.REQUEST_DEADLINE_MS ?? defaults.requestDeadlineMs);
  const probeMs = Number(env.DB_READINESS_PROBE_MS ?? defaults.dbReadinessProbeMs);
  const cluster = await startPrimary({ settings: benchSettings });
  const api = await startApi({ ...env, DATABASE_URL: cluster.urlFor('tidewater') }).catch(async (error: unknown) => {
    await cluster.destroy();
    throw error;
  });
  const clientTimeoutMs = deadlineMs + 15_000;
  try {
    const customer = await signUpPatiently(api.url, 'outage');
    for (let i = 0; i < 5; i++) await timed(api.url, customer.token, 5_000);
    // What an operator sees of the outage, read from the API's own /metrics (adr/0017).
    const before = await scrapeMetrics(api.metricsUrl);
    await cluster.stop();
    const stoppedAt = Date.now();
    const stoppedFirst = await timed(api.url, customer.token, clientTimeoutMs);
    const stoppedNext = await timed(api.url, customer.token, clientTimeoutMs);
    const during = await scrapeMetrics(api.metricsUrl);
    const stoppedSeconds = (Date.now() - stoppedAt) / 1000;
    await cluster.start();
    const backAfterStop = await firstSuccess(api.url, customer.token, Date.now(), 60_000);
    const seen = outageMetrics(before, during, stoppedSeconds);
    await cluster.pause();
    const hung = await timed(api.url, customer.token, clientTimeoutMs);
    await cluster.resume();
    const backAfterHang = await firstSuccess(api.url, customer.token, Date.now(), 60_000);
    const statusOk = (r: { status: number | undefined }) => r.status === 503;
    const only503 = (r: { status: number | undefined; ms: number }) => (statusOk(r) ? r.ms : Number.NaN);
    const label = chain === 'scaled' ? 'scaled chain' : 'default chain';
    return {
      ratios: [
        [`${label}: stopped → first 503 / deadline`, ratio(only503(stoppedFirst), deadlineMs), `the deadline (${deadlineMs / 1000} s)`],
        [`${label}: stopped → next 503 / deadline`, ratio(only503(stoppedNext), deadlineMs), `the deadline (${deadlineMs / 1000} s)`],
        [`${label}: hung → 503 / deadline`, ratio(only503(hung), deadlineMs), `the deadline (${deadlineMs / 1000} s)`],
        [`${label}: back after stop → first 2xx / probe interval`, ratio(backAfterStop, probeMs), `the readiness probe (${probeMs} ms)`],
        [`${label}: back after hang → first 2xx / probe interval`, ratio(backAfterHang, probeMs), `the readiness probe (${probeMs} ms)`],
      ],
      figures: [
        { label: `${label}: stopped → first 503`, value: stoppedFirst.ms / 1000, unit: 's' },
        { label: `${label}: stopped → next 503`, value: stoppedNext.ms / 1000, unit: 's' },
        { label: `${label}: hung → 503`, value: hung.ms / 1000, unit: 's' },
        { label: `${label}: back after stop → 2xx`, value: backAfterStop / 1000, unit: 's' },
        { label: `${label}: back after hang → 2xx`, value: backAfterHang / 1000, unit: 's' },
        { label: `${label}: database logins per second while stopped (/metrics)`, value: seen.loginsPerSecond, unit: '/s' },
        { label: `${label}: retries while stopped (/metrics)`, value: seen.retries, unit: '' },
      ],
      notes: [
        `${label}: stopped → ${stoppedFirst.status ?? 'no answer'} at ${stoppedFirst.ms} ms, next ${stoppedNext.status ?? 'no answer'} at ${stoppedNext.ms} ms; ` +
          `hung → ${hung.status ?? 'no answer'} at ${hung.ms} ms (deadline ${deadlineMs} ms, ${hung.ms - deadlineMs >= 0 ? '+' : ''}${hung.ms - deadlineMs} ms); ` +
          `first 2xx ${backAfterStop} ms after the start returned, ${backAfterHang} ms after the resume`,
        `${label}, from /metrics while stopped (${stoppedSeconds.toFixed(1)} s): ${seen.loginsPerSecond.toFixed(2)} probe logins/s, ` +
          `${seen.retries} retries, ${seen.breakerWaits} waits at the circuit breaker, 503s by cause: ${seen.causes || 'none'}`,
      ],
    };
  } finally {
    await api.stop();
    await cluster.destroy();
  }
}

/** The outage as the API's /metrics tells it: the change between two scrapes over `seconds`. */
function outageMetrics(before: readonly Sample[], after: readonly Sample[], seconds: number) {
  const delta = (name: string, labels: Record<string, string> = {}) => sumOf(after, name, labels) - sumOf(before, name, labels);
  const causes = [...new Set(after.filter((s) => s.name === 'tidewater_unavailable_total').map((s) => s.labels.cause ?? ''))]
    .map((cause) => [cause, delta('tidewater_unavailable_total', { cause })] as const)
    .filter(([, count]) => count > 0)
    .map(([cause, count]) => `${cause} ${count}`)
    .join(', ');
  return {
    loginsPerSecond: delta('tidewater_readiness_gate_probes_total', { gate: 'primary' }) / seconds,
    retries: delta('tidewater_db_retries_total', { outcome: 'retried' }),
    breakerWaits: delta('tidewater_db_retries_total', { outcome: 'breaker_wait' }),
    causes,
  };
}

/** outage timings on the scaled chain and (unless smoke) the real default one. */
export async function outageScenario(size: Size): Promise<ScenarioResult> {
  const chains: Array<'scaled' | 'default'> = size.realDefaults ? ['scaled', 'default'] : ['scaled'];
  const results = [];
  for (const chain of chains) results.push(await outageOn(chain));
  return {
    name: 'outage',
    ratios: results.flatMap((r) => r.ratios.map(([name, value, baseline]) => ratioOf(name, [value], baseline))),
    figures: results.flatMap((r) => r.figures),
    notes: [
      'one probe each (not a median): the default deadline is 40 s',
      'the circuit breaker (adr/0011) makes "a 503 once the retry budget is spent" the same case as the first: a stopped database opens the breaker, an attempt that meets it waits for it to close (spending no retry, no budget token) until the deadline, so both answer 503 at the deadline; the "next 503" is that second request',
      ...(size.realDefaults ? [] : ['--smoke: the scaled chain only (the real default chain takes about two minutes)']),
      ...results.flatMap((r) => r.notes),
    ],
  };
}

/** The statements `pg_stat_statements` counted on a server's `tidewater` database since its last reset. */
async function statements(url: string): Promise<number> {
  const client = new pg.Client(url);
  client.on('error', () => {});
  await client.connect();
  try {
    const { rows } = await client.query<{ calls: string | null }>(
      `SELECT sum(calls)::text AS calls FROM pg_stat_statements WHERE dbid = (SELECT oid FROM pg_database WHERE datname = 'tidewater')`,
    );
    return Number(rows[0]?.calls ?? 0);
  } finally {
    await client.end().catch(() => {});
  }
}

async function reset(url: string): Promise<void> {
  const client = new pg.Client(url);
  client.on('error', () => {});
  await client.connect();
  try {
    await client.query('SELECT pg_stat_statements_reset()');
  } finally {
    await client.end().catch(() => {});
  }
}

/**
 * replica: a primary with a streaming replica (pg_stat_statements loaded on both), an API
 * without the replica and one with it; the same read load (`GET /api/accounts`, customers
 * whose read-your-writes marks have expired) on each. Counts the statements each server
 * ran per request.
 */
export async function replicaScenario(size: Size): Promise<ScenarioResult> {
  const primary = await startPrimary({ settings: { ...benchSettings, shared_preload_libraries: 'pg_stat_statements', 'pg_stat_statements.track': 'all' } });
  const apis: ApiProcess[] = [];
  let replica: PgCluster | undefined;
  try {
    const primaryUrl = primary.urlFor('tidewater');
    const setup = new pg.Client(primaryUrl);
    await setup.connect();
    await setup.query('CREATE EXTENSION pg_stat_statements');
    await setup.end();
    // Also where the counts are read (the `postgres` database), so reading them counts nothing in `tidewater`.
    const reader = new pg.Client(primary.url);
    await reader.connect();
    await reader.query('CREATE EXTENSION pg_stat_statements');
    await reader.end();
    replica = await startReplica(primary);
    const readYourWritesMs = 1_000;
    const alone = await startApi({ ...apiEnv, DATABASE_URL: primaryUrl, READ_YOUR_WRITES_MS: String(readYourWritesMs) });
    apis.push(alone);
    const withReplica = await startApi({ ...apiEnv, DATABASE_URL: primaryUrl, DATABASE_REPLICA_URL: replica.urlFor('tidewater'), READ_YOUR_WRITES_MS: String(readYourWritesMs) });
    apis.push(withReplica);
    const customer = await signUp(alone.url, 'replica');
    await sleep(readYourWritesMs + 500);
    const durationMs = size.seconds * 1000;
    const measure = async (api: ApiProcess) => {
      await warmUp(listAccounts(api.url, customer.token), size);
      await reset(primary.url);
      await reset(replica!.url);
      const load = await closedLoop(size.clients, durationMs, listAccounts(api.url, customer.token));
      const requests = load.ok + load.failed;
      return { load, onPrimary: (await statements(primary.url)) / requests, onReplica: (await statements(replica!.url)) / requests };
    };
    const without = await measure(alone);
    const withIt = await measure(withReplica);
    const share = ratio(withIt.onReplica, withIt.onReplica + withIt.onPrimary);
    return {
      name: 'replica',
      ratios: [
        ratioOf('share of read statements served by the replica', [share], 'all statements of the read load'),
        ratioOf('primary statements per read, with/without replica', [ratio(withIt.onPrimary, without.onPrimary)], 'the same load without a replica'),
        ratioOf('GET /api/accounts throughput, with/without replica', [ratio(withIt.load.throughput, without.load.throughput)], 'the same load without a replica'),
      ],
      figures: [
        { label: 'statements per GET on the primary, no replica', value: without.onPrimary, unit: 'statements' },
        { label: 'statements per GET on the primary, with replica', value: withIt.onPrimary, unit: 'statements' },
        { label: 'statements per GET on the replica', value: withIt.onReplica, unit: 'statements' },
        { label: 'GET /api/accounts, no replica', value: without.load.throughput, unit: 'requests/s' },
        { label: 'GET /api/accounts, with replica', value: withIt.load.throughput, unit: 'requests/s' },
      ],
      notes: [
        'a 2-core machine cannot show throughput scaling: the primary, the replica, the API and the load share the same two cores, so the throughput ratio says nothing about a replica on its own machine; the statement counts (pg_stat_statements, every statement of the tidewater database) are what this scenario measures',
        `without replica: ${describe('GET', without.load)}; ${without.onPrimary.toFixed(2)} statements per request on the primary`,
        `with replica: ${describe('GET', withIt.load)}; ${withIt.onPrimary.toFixed(2)} on the primary, ${withIt.onReplica.toFixed(2)} on the replica per request`,
      ],
    };
  } finally {
    for (const api of apis) await api.stop();
    await replica?.destroy();
    await primary.destroy();
  }
}

/**
 * contention: the existing scenarios (contention/scenarios.ts) at each size, the bank's
 * deposits and transfers `size.runs` times. Ratios: the share of the N sends that moved
 * money, the bank's (median over its runs) and the naive baseline's. Figures: the bank's
 * busy answers (all runs together) and its p99 (the median of its runs).
 */
export async function contentionScenario(bench: Bench, size: Size): Promise<ScenarioResult> {
  const rows = await runContention(bench.api.url, bench.databaseUrl, size.contentionSizes, { naiveBudgetMs: size.naiveBudgetMs, bankRuns: size.runs });
  const ratios = [];
  const figures: Figure[] = [];
  const cases = [...new Map(rows.map((r) => [`${r.scenario} N=${r.n}`, r])).entries()];
  for (const [name, { scenario, n }] of cases) {
    const of = (path: Row['path']) => rows.filter((r) => r.scenario === scenario && r.n === n && r.path === path);
    const bank = of('bank');
    const naive = of('naive');
    if (bank.length === 0) continue;
    ratios.push(ratioOf(`${name}: bank moved/N`, bank.map((r) => ratio(r.ok, r.n)), 'N sent'));
    if (naive.length) ratios.push(ratioOf(`${name}: naive moved/N`, naive.map((r) => ratio(r.ok, r.n)), 'N sent'));
    figures.push(
      { label: `${name}: bank busy`, value: bank.reduce((sum, r) => sum + r.busy, 0), unit: 'busy answers' },
      { label: `${name}: bank p99`, value: median(bank.map((r) => r.p99)), unit: 'ms' },
    );
  }
  const bad = rows.filter((r) => r.ledger !== 'ok').map((r) => `${r.scenario} N=${r.n} ${r.path}: ledger ${r.ledger}`);
  return {
    name: 'contention',
    ratios,
    figures,
    notes: [
      ...rows.map((r) => `${r.scenario} N=${r.n} ${r.path}${r.run > 1 ? ` #${r.run}` : ''}: moved ${r.ok}, busy ${r.busy}, refused ${r.refused}, other ${r.other}, p50 ${r.p50.toFixed(0)} ms, p99 ${r.p99.toFixed(0)} ms, ledger ${r.ledger}`),
      ...(bad.length ? [`LEDGER CHECK FAILED: ${bad.join('; ')}`] : []),
    ],
    ...(rows.some((r) => r.path === 'bank' && r.ledger !== 'ok') ? { error: `the bank's ledger check failed: ${bad.join('; ')}` } : {}),
  };
}
