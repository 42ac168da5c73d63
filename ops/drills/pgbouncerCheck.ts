/**
 * The PgBouncer check (`npm run ops:pgbouncer-check`, adr/0060): the API behind Debian's
 * PgBouncer 1.18 in transaction pooling and in session pooling, as an operator runs it
 * (DB_SESSION_SETTINGS=role, the guards set on the roles; DB_PREPARED_STATEMENTS=unnamed for
 * transaction pooling). Several clients send a few hundred deposits under their own keys;
 * checked: no 500, every 201 in the ledger and the ledger's money the sum of the 201s, the
 * guards as the API's logins see them through the pooler. Then what must fail: named
 * statements under transaction pooling (today's default) answer 500s, and startup parameters
 * the pooler drops stop the API at start. Prints its figures, then `pgbouncer-check: N checks
 * passed, M failed`; exits 1 when a check fails.
 *
 * Needs `pgbouncer` on PATH and PostgreSQL's binaries; everything on loopback in a throwaway
 * directory, removed at the end, also when it fails.
 */
import { randomUUID } from 'node:crypto';
import { chmodSync, mkdtempSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { call } from '../../test-support/src/httpClient.ts';
import { startApi } from '../../test-support/src/apiProcess.ts';
import { startPrimary, type PgCluster } from '../../test-support/src/pgCluster.ts';
import { queryOnce } from '../../test-support/src/pgProcesses.ts';
import pg from 'pg';
import { loadConfig } from '../../server/src/config.ts';
import { sendCancelRequest } from '../../server/src/data/commitGate/cancellableClient.ts';
import { startPgBouncer, type PgBouncer, type PgBouncerOptions } from './pgbouncer.ts';
import { signUpAndIn } from './drillSupport.ts';

const CLIENTS = 6;
const DEPOSITS_PER_CLIENT = 50;
const WORKERS = '2';

/** A customer with one account, signed in. */
interface Customer {
  token: string;
  accountId: string;
}

/** One pooling mode's run. */
interface Run {
  label: string;
  pooling: PgBouncerOptions;
  preparedStatements: 'named' | 'unnamed';
  /** True for the run that shows what breaks: its 500s are expected. */
  expectFailures?: boolean;
}

const runs: Run[] = [
  {
    label: 'transaction pooling, unnamed statements',
    pooling: { poolMode: 'transaction' },
    preparedStatements: 'unnamed',
  },
  {
    label: 'session pooling, named statements',
    pooling: { poolMode: 'session' },
    preparedStatements: 'named',
  },
  {
    label: "transaction pooling, named statements (main's default)",
    pooling: { poolMode: 'transaction' },
    preparedStatements: 'named',
    expectFailures: true,
  },
];

const failures: string[] = [];
let passed = 0;
const expectThat = (holds: boolean, what: string) => {
  console.log(`  ${holds ? 'ok  ' : 'FAIL'} ${what}`);
  if (holds) passed += 1;
  else failures.push(what);
};

async function signUp(apiUrl: string, n: number): Promise<Customer> {
  const { accessToken, accountId } = await signUpAndIn(apiUrl, 'pooled', n);
  return { token: accessToken, accountId };
}

/** Each customer sends its deposits one after another, all customers at once; answers each key's amount and status. */
async function sendDeposits(
  apiUrl: string,
  customers: Customer[],
): Promise<Array<{ key: string; amountMinor: number; status: number; code?: string }>> {
  const answers = await Promise.all(
    customers.map(async (customer) => {
      const mine = [];
      for (let n = 0; n < DEPOSITS_PER_CLIENT; n++) {
        const key = randomUUID();
        const amountMinor = 100 + Math.floor(Math.random() * 900);
        const reply = await call(apiUrl, 'POST', `/api/accounts/${customer.accountId}/deposits`, {
          token: customer.token,
          body: { amountMinor },
          headers: { 'idempotency-key': key },
        }).catch((error: unknown) => ({ status: 0, body: { errorCode: String(error) } }));
        mine.push({
          key,
          amountMinor,
          status: reply.status,
          code: reply.body?.errorCode as string | undefined,
        });
      }
      return mine;
    }),
  );
  return answers.flat();
}

async function runOne(
  root: string,
  cluster: PgCluster,
  run: Run,
  customers: Customer[],
): Promise<Customer[]> {
  console.log(`${run.label}`);
  const bouncer = await startPgBouncer(
    join(root, `bouncer-${runs.indexOf(run)}`),
    [
      { name: 'tidewater', serverPort: cluster.port, serverDatabase: 'tidewater', user: 'tw_app' },
      { name: 'tidewater_ro', serverPort: cluster.port, serverDatabase: 'tidewater', user: 'tw_reader' },
    ],
    run.pooling,
  );
  const api = await startApi({
    DATABASE_URL: bouncer.urlFor('tidewater', 'tw_app'),
    DATABASE_READ_ONLY_URL: bouncer.urlFor('tidewater_ro', 'tw_reader'),
    DB_SESSION_SETTINGS: 'role',
    DB_PREPARED_STATEMENTS: run.preparedStatements,
    API_WORKERS: WORKERS,
    LOG_LEVEL: 'warn',
  }).catch(async (error: unknown) => {
    await bouncer.stop();
    throw error;
  });
  try {
    const signedUp =
      customers.length > 0
        ? customers
        : await Promise.all(Array.from({ length: CLIENTS }, (_, n) => signUp(api.url, n)));
    const sent = await sendDeposits(api.url, signedUp);
    const byStatus = new Map<number, number>();
    for (const { status } of sent) byStatus.set(status, (byStatus.get(status) ?? 0) + 1);
    const ledger = await queryOnce<{ key: string; moved: string }>(
      cluster.urlFor('tidewater'),
      `SELECT idempotency_key AS key, sum(amount_minor)::text AS moved FROM ledger_entries WHERE idempotency_key = ANY('{${sent.map((s) => s.key).join(',')}}') GROUP BY 1`,
    );
    const movedOf = new Map(ledger.map((row) => [row.key, Number(row.moved)]));
    const created = sent.filter((s) => s.status === 201);
    const sumCreated = created.reduce((sum, s) => sum + s.amountMinor, 0);
    const sumLedger = [...movedOf.values()].reduce((sum, moved) => sum + moved, 0);
    const guards = await guardsThrough(bouncer);
    console.log(`  deposits sent: ${sent.length} from ${signedUp.length} clients, API_WORKERS=${WORKERS}`);
    console.log(
      `  answers by status: ${[...byStatus]
        .sort(([a], [b]) => a - b)
        .map(([status, n]) => `${n} × ${status}`)
        .join(', ')}`,
    );
    const codes = [...new Set(sent.filter((s) => s.status >= 500).map((s) => s.code))];
    if (codes.length) console.log(`  error codes of the 5xx: ${codes.join(', ')}`);
    console.log(`  money in the ledger: ${sumLedger} minor units; sum of the 201s: ${sumCreated}`);
    console.log(`  as the API's logins see their sessions: ${guards}`);
    if (runs.indexOf(run) === 0) await cancelThrough(bouncer);
    if (run.expectFailures) {
      expectThat(
        (byStatus.get(500) ?? 0) > 0,
        'named statements under transaction pooling answer 500s (the check can fail)',
      );
    } else {
      expectThat(!byStatus.has(500), 'no 500');
      expectThat(created.length === sent.length, 'every deposit answered 201');
      expectThat(
        created.every((s) => movedOf.get(s.key) === s.amountMinor),
        'every 201 is in the ledger with its amount',
      );
      expectThat(sumLedger === sumCreated, 'money in the ledger = sum of the 201s');
      expectThat(
        guards.includes('read_only_pool.default_transaction_read_only=on') &&
          !guards.includes('statement_timeout=0'),
        'the statement timeout and read-only hold',
      );
    }
    return signedUp;
  } finally {
    await api.stop();
    await bouncer.stop();
  }
}

/** `SHOW` of each guard through the pooler, under each of the API's logins. */
async function guardsThrough(bouncer: PgBouncer): Promise<string> {
  const show = async (url: string, name: string) =>
    (await queryOnce<Record<string, string>>(url, `SHOW ${name}`))[0]![name];
  const primary = bouncer.urlFor('tidewater', 'tw_app');
  const readOnly = bouncer.urlFor('tidewater_ro', 'tw_reader');
  return [
    `primary.statement_timeout=${await show(primary, 'statement_timeout')}`,
    `primary.idle_in_transaction_session_timeout=${await show(primary, 'idle_in_transaction_session_timeout')}`,
    `primary.default_transaction_read_only=${await show(primary, 'default_transaction_read_only')}`,
    `read_only_pool.statement_timeout=${await show(readOnly, 'statement_timeout')}`,
    `read_only_pool.default_transaction_read_only=${await show(readOnly, 'default_transaction_read_only')}`,
  ].join(', ');
}

/**
 * The API's own CancelRequest (cancellableClient.ts) through the pooler, with the keys it gave,
 * ends a running statement well before its statement timeout; the pid it gave is not the server process's.
 */
async function cancelThrough(bouncer: PgBouncer): Promise<void> {
  const client = new pg.Client(bouncer.urlFor('tidewater', 'tw_app'));
  client.on('error', () => {});
  await client.connect();
  try {
    const { processID } = client as unknown as { processID: number };
    const serverPid = (await client.query<{ pid: number }>('SELECT pg_backend_pid() AS pid')).rows[0]!.pid;
    const started = performance.now();
    const sleeping = client.query('SELECT pg_sleep(10)').then(
      () => 'finished',
      (error: { code?: string }) => error.code,
    );
    await new Promise((resolve) => setTimeout(resolve, 300));
    sendCancelRequest(client);
    const outcome = await sleeping;
    const seconds = (performance.now() - started) / 1000;
    console.log(
      `  the API's cancel through the pooler: ${outcome} after ${seconds.toFixed(2)} s (pg_sleep(10)); the pid the pooler gave ${processID}, pg_backend_pid() ${serverPid}`,
    );
    expectThat(
      outcome === '57014' && seconds < 5,
      "the API's CancelRequest with the pooler's keys cancels the statement (57014 within 5 s, not at its end)",
    );
  } finally {
    await client.end().catch(() => undefined);
  }
}

/** Startup parameters through a pooler told to drop them, on a role without the guards: the API must refuse to start, naming them. */
async function droppedGuardsRefused(root: string, cluster: PgCluster): Promise<void> {
  console.log(
    'startup parameters the pooler drops (ignore_startup_parameters), on a role without the guards',
  );
  const bouncer = await startPgBouncer(
    join(root, 'bouncer-dropping'),
    [{ name: 'tidewater', serverPort: cluster.port, serverDatabase: 'tidewater', user: 'tw_plain' }],
    {
      poolMode: 'transaction',
      ignoreStartupParameters: ['statement_timeout', 'idle_in_transaction_session_timeout', 'options'],
    },
  );
  try {
    const refusal = await startApi(
      {
        DATABASE_URL: bouncer.urlFor('tidewater', 'tw_plain'),
        DB_SESSION_SETTINGS: 'startup',
        DB_PREPARED_STATEMENTS: 'unnamed',
        LOG_LEVEL: 'warn',
      },
      30_000,
    ).then(
      async (api) => {
        await api.stop();
        return 'it started';
      },
      (error: unknown) => String(error),
    );
    const logLine = refusal.split('\n').find((line) => line.includes('refusing to start'));
    const said = logLine ? (JSON.parse(logLine) as { msg: string }).msg : refusal.slice(0, 500);
    console.log(`  the API said: ${said.replaceAll('\n', '\n    ')}`);
    expectThat(
      /statement_timeout is 0/.test(refusal) && /default_transaction_read_only is off/.test(refusal),
      'the API refuses to start, naming the dropped guards',
    );
  } finally {
    await bouncer.stop();
  }
}

async function check(root: string): Promise<void> {
  const cluster = await startPrimary({ dir: join(root, 'pg') });
  try {
    const config = loadConfig({});
    const idleMs = config.requestDeadlineMs + 20_000;
    // The operator's roles: the API's owns the database (its migrations), the reader reads all, tw_plain carries no guard.
    for (const sql of [
      'CREATE ROLE tw_app LOGIN',
      'ALTER DATABASE tidewater OWNER TO tw_app',
      'CREATE ROLE tw_reader LOGIN IN ROLE pg_read_all_data',
      'CREATE ROLE tw_plain LOGIN SUPERUSER',
      `ALTER ROLE tw_app SET statement_timeout = '${config.dbStatementTimeoutMs}ms'`,
      `ALTER ROLE tw_app SET idle_in_transaction_session_timeout = '${idleMs}ms'`,
      `ALTER ROLE tw_reader SET statement_timeout = '${config.dbStatementTimeoutMs}ms'`,
      `ALTER ROLE tw_reader SET idle_in_transaction_session_timeout = '${idleMs}ms'`,
      'ALTER ROLE tw_reader SET default_transaction_read_only = on',
    ]) {
      await queryOnce(cluster.url, sql);
    }
    let customers: Customer[] = [];
    for (const run of runs) customers = await runOne(root, cluster, run, customers);
    await droppedGuardsRefused(root, cluster);
  } finally {
    await cluster.destroy();
  }
}

const root = mkdtempSync('/tmp/tidewater-pgbouncer-');
chmodSync(root, 0o755); // the servers' user walks through it to its cluster and its pooler
const began = performance.now();
try {
  await check(root);
  console.log(`check seconds: ${((performance.now() - began) / 1000).toFixed(1)}`);
  if (failures.length) process.exitCode = 1;
} catch (error) {
  console.error('the PgBouncer check could not finish:', error);
  failures.push('the check finished');
  process.exitCode = 1;
} finally {
  rmSync(root, { recursive: true, force: true });
  // The last line, as CI's summary reads every check-<name>.log (.ci/summary.mjs on main).
  console.log(`pgbouncer-check: ${passed} checks passed, ${failures.length} failed`);
}
