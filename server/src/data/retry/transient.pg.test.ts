/**
 * The classifier against errors a real PostgreSQL 15 produces, captured through plain `pg`
 * and through `@prisma/adapter-pg` (what Prisma Client runs on). Each scenario provokes
 * one failure for real; the test checks where the code sits on the error (its shape) and
 * what `classify` makes of it.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startPrimary, type PgCluster } from '@tidewater/test-support/pgCluster';
import { queryOnce, waitFor } from '@tidewater/test-support/pgProcesses';
import {
  sessionDrivers,
  type DriverName,
  type Session,
  type SessionOptions,
} from '@tidewater/test-support/sqlSessions';
import { classify, type Classification } from './transient.ts';

interface Context {
  /** A session as `user` (default postgres) on the `tidewater` database. */
  open(options?: Omit<SessionOptions, 'connectionString'>, user?: string): Promise<Session>;
  admin(sql: string): Promise<object[]>;
  cluster: PgCluster;
}

/** What the driver threw, and what `classify` should make of it ('pg' code first when they differ). */
type Want = Omit<Classification, 'code'> & {
  code: string | [pg: string, adapter: string];
  shape: Record<DriverName, object>;
};

/** The rejection of `promise`; fails the test when it fulfils. */
const rejection = (promise: Promise<unknown>) =>
  promise.then(
    () => expect.fail('expected a failure'),
    (error: unknown) => error,
  );
const bump = (id: number) => `UPDATE t SET v = v + 1 WHERE id = ${id}`;
const serverError = (code: string, kind = 'postgres') => ({
  pg: { code },
  adapter: { name: 'DriverAdapterError', cause: { originalCode: code, kind } },
});
const sqlStateOf = (error: unknown) => {
  const shape = error as { code?: unknown; cause?: { originalCode?: unknown } } | undefined;
  return shape?.code ?? shape?.cause?.originalCode;
};
const plainError = (message: string) => ({ pg: { message }, adapter: { message } });

/** Starts a 5 s statement in `session`, hands its backend pid to `act` once the admin sees it; resolves to its error. */
async function whileRunning(session: Session, { admin }: Context, act: (pid: number) => Promise<unknown>) {
  const marker = `victim_${Math.random().toString(36).slice(2)}`;
  const failure = rejection(session.run(`SELECT pg_sleep(5) /* ${marker} */`));
  const find = `SELECT pid FROM pg_stat_activity WHERE query LIKE '%${marker}%' AND pid <> pg_backend_pid()`;
  let pid: number | undefined;
  await waitFor(
    'the victim statement',
    async () => (pid = ((await admin(find))[0] as { pid: number })?.pid) > 0,
  );
  await act(pid ?? 0);
  return failure;
}

// prettier-ignore
const scenarios: [string, { given: (context: Context) => Promise<unknown>; want: Want }][] = [
  ['deadlock (rows locked in opposite order)', { given: async ({ open }) => {
    const [a, b] = [await open(), await open()];
    await a.begin(); await b.begin(); await a.run(bump(1)); await b.run(bump(2));
    const outcomes = await Promise.allSettled([a.run(bump(2)), b.run(bump(1))]);
    await a.rollback(); await b.rollback();
    return outcomes.find((outcome) => outcome.status === 'rejected')?.reason;
  }, want: { kind: 'deadlock', code: '40P01', confirmedNotApplied: true, retryable: true, shape: serverError('40P01', 'TransactionWriteConflict') } }],
  ['serialization failure (SERIALIZABLE, concurrent update)', { given: async ({ open, admin }) => {
    const a = await open();
    await a.begin('SERIALIZABLE'); await a.run('SELECT v FROM t WHERE id = 1'); await admin(bump(1));
    return rejection(a.run(bump(1))).finally(() => a.rollback());
  }, want: { kind: 'serialization', code: '40001', confirmedNotApplied: true, retryable: true, shape: serverError('40001', 'TransactionWriteConflict') } }],
  ['serialization failure at COMMIT (write skew)', { given: async ({ open }) => {
    const [a, b] = [await open(), await open()];
    await a.begin('SERIALIZABLE'); await b.begin('SERIALIZABLE');
    await a.run('SELECT v FROM t WHERE id = 1'); await b.run('SELECT v FROM t WHERE id = 2');
    await a.run(bump(2)); await b.run(bump(1)); await a.commit();
    return rejection(b.commit());
  }, want: { kind: 'serialization', code: '40001', confirmedNotApplied: true, retryable: true, shape: serverError('40001', 'TransactionWriteConflict') } }],
  ['lock timeout', { given: async ({ open }) => {
    const [a, b] = [await open(), await open()];
    await a.begin(); await a.run(bump(1)); await b.run("SET lock_timeout = '50ms'");
    return rejection(b.run(bump(1))).finally(() => a.rollback());
  }, want: { kind: 'lockNotAvailable', code: '55P03', confirmedNotApplied: true, retryable: true, shape: serverError('55P03') } }],
  ['statement timeout', { given: async ({ open }) => {
    const a = await open();
    await a.run('SET statement_timeout = 100');
    return rejection(a.run('SELECT pg_sleep(1)'));
  }, want: { kind: 'statementTimeout', code: '57014', confirmedNotApplied: true, retryable: false, shape: serverError('57014') } }],
  ['pg_terminate_backend mid-statement', { given: async (context) =>
    whileRunning(await context.open(), context, (pid) => context.admin(`SELECT pg_terminate_backend(${pid})`)),
  want: { kind: 'adminShutdown', code: '57P01', confirmedNotApplied: false, retryable: true, shape: serverError('57P01') } }],
  ['backend killed mid-statement (no error message, the socket closes)', { given: async (context) => {
    const error = await whileRunning(await context.open(), context, async (pid) => process.kill(pid, 'SIGKILL'));
    await waitFor('crash recovery', async () => (await context.admin('SELECT 1')).length === 1);
    return error;
  }, want: { kind: 'connection', code: 'CONNECTION_TERMINATED', confirmedNotApplied: false, retryable: true, shape: plainError('Connection terminated unexpectedly') } }],
  ['connecting during crash recovery', { given: async (context) => {
    let captured: unknown;
    for (let crash = 1; crash <= 5 && !captured; crash++) {
      await whileRunning(await context.open(), context, async (pid) => process.kill(pid, 'SIGKILL'));
      await waitFor('crash recovery', async () => {
        const error = await (await context.open()).run('SELECT 1').then(() => undefined, (failure: unknown) => failure);
        if (sqlStateOf(error) === '57P03') captured ??= error; // caught in the window before recovery ends
        return !error;
      }, 60_000, 10);
    }
    return captured;
  }, want: { kind: 'cannotConnectNow', code: '57P03', confirmedNotApplied: true, retryable: true, shape: serverError('57P03') } }],
  ['too many connections for the role', { given: async ({ open }) => {
    await (await open({}, 'app')).run('SELECT 1'); // holds the role's one connection (pooled, idle)
    return rejection((await open({}, 'app')).run('SELECT 1'));
  }, want: { kind: 'tooManyConnections', code: '53300', confirmedNotApplied: true, retryable: true, shape: serverError('53300', 'TooManyConnections') } }],
  ['pool wait timeout', { given: async ({ open }) => {
    const a = await open({ connectionTimeoutMillis: 200 });
    await a.begin();
    return rejection(a.run('SELECT 1', true)).finally(() => a.rollback());
  }, want: { kind: 'poolTimeout', code: 'POOL_TIMEOUT', confirmedNotApplied: true, retryable: false, shape: plainError('timeout exceeded when trying to connect') } }],
  ['hung server (SIGSTOP): connect timeout', { given: async ({ open, cluster }) => {
    const a = await open({ connectionTimeoutMillis: 300 });
    await cluster.pause();
    return rejection(a.run('SELECT 1')).finally(() => cluster.resume());
  }, want: { kind: 'connection', code: 'CONNECT_TIMEOUT', confirmedNotApplied: true, retryable: true, shape: plainError('Connection terminated due to connection timeout') } }],
  ['stopped server: connection refused', { given: async ({ open, cluster }) => {
    await cluster.stop();
    return rejection((await open()).run('SELECT 1')).finally(() => cluster.start());
  }, want: { kind: 'connection', code: ['ECONNREFUSED', 'DatabaseNotReachable'], confirmedNotApplied: true, retryable: true,
    shape: { pg: { code: 'ECONNREFUSED', syscall: 'connect' }, adapter: { name: 'DriverAdapterError', cause: { kind: 'DatabaseNotReachable' } } } } }],
];

const driverNames: [label: string, DriverName][] = [
  ['pg', 'pg'],
  ['@prisma/adapter-pg', 'adapter'],
];
/** Ends a session, giving up after 2 s (a pool whose server died may never finish ending). */
const closeQuietly = (session: Session) =>
  Promise.race([session.close(), new Promise((done) => setTimeout(done, 2_000))]).catch(() => undefined);

describe.each(driverNames)('classify on real PostgreSQL errors through %s', (_label, driver) => {
  let cluster: PgCluster;
  const sessions: Session[] = [];
  const context = (): Context => ({
    cluster,
    admin: (sql) => queryOnce(cluster.urlFor('tidewater'), sql),
    open: async (options = {}, user = 'postgres') => {
      const connectionString = cluster.urlFor('tidewater').replace('postgres@', `${user}@`);
      const session = await sessionDrivers[driver]({ connectionString, ...options });
      sessions.push(session);
      return session;
    },
  });

  beforeAll(async () => {
    cluster = await startPrimary({ settings: { deadlock_timeout: '100ms' } });
    await context().admin('CREATE TABLE t (id int PRIMARY KEY, v int); INSERT INTO t VALUES (1, 0), (2, 0)');
    await context().admin('CREATE ROLE app LOGIN CONNECTION LIMIT 1; GRANT ALL ON t TO app');
    // The crash scenarios below SIGKILL a backend: with the test cluster's synchronous_commit
    // off, crash recovery could lose this setup (the role "app" was seen gone). A checkpoint
    // writes it to the data files, which outlive a crash of the server's processes.
    await context().admin('CHECKPOINT');
  });
  afterEach(() => Promise.all(sessions.splice(0).map(closeQuietly)));
  afterAll(() => cluster?.destroy());

  it.each(scenarios)('%s', async (_name, { given, want: { shape, code, ...want } }) => {
    const error = await given(context());
    expect(error).toMatchObject(shape[driver]);
    const codeHere = typeof code === 'string' ? code : code[driver === 'pg' ? 0 : 1];
    expect(classify(error)).toEqual({ ...want, code: codeHere });
  });
});
