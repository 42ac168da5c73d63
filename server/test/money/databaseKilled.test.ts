/**
 * PostgreSQL stopped (fast), crashed (immediate) or its backends ended while money is
 * in flight (adr/0011): at least 16 of the API's requests are inside a transaction when
 * the fault hits, waiting on a row lock, and more queue for a pooled connection. The API
 * process must live through it, answer only 201, 409 or 503, and answer 2xx again within
 * 1 s of the database being back; the books must still balance.
 *
 * Before the fix a connection could be checked out with no 'error' listener: pg-pool hands
 * a released connection to a waiting `connect()` synchronously, while pg is still parsing
 * the socket's chunk, and the waiter attaches its listener a microtask later. A FATAL
 * 57P01 in the same chunk ended the process ("Unhandled 'error' event").
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { setTimeout as sleep } from 'node:timers/promises';
import pg from 'pg';
import type { ApiProcess } from '@tidewater/test-support/apiProcess';
import { bankOnPostgres, type BankOnPostgres } from '@tidewater/test-support/bankOnPostgres';
import { call } from '@tidewater/test-support/httpClient';
import type { PgCluster } from '@tidewater/test-support/pgCluster';
import type { Bank, Customer } from '@tidewater/test-support/bank';
import { query, runAuditVerify } from '@tidewater/test-support/bankDatabase';

/** Their deposits wait on a row lock inside their transactions, holding 16 of the pool's 20 connections. */
const LOCKED_ACCOUNTS = 16;
/** Their deposits queue for the pool's other 4 connections: a released connection is handed straight to a waiter. */
const FREE_ACCOUNTS = 16;
/** The API's own sessions inside a transaction (the holder names itself). */
const IN_TRANSACTION = `SELECT count(*)::int AS n FROM pg_stat_activity
  WHERE datname = 'tidewater' AND xact_start IS NOT NULL AND application_name <> 'test-holder' AND pid <> pg_backend_pid()`;

type Fault = 'stop -m fast' | 'stop -m immediate' | 'pg_terminate_backend';

describe('the database killed under load', () => {
  let setup: BankOnPostgres;
  let cluster: PgCluster;
  let url: string;
  let api: ApiProcess;
  let b: Bank;
  let ada: Customer;
  const accounts: string[] = [];

  beforeAll(async () => {
    // synchronous_commit on: a crash must not take back a commit the API was told of.
    setup = await bankOnPostgres({
      settings: { synchronous_commit: 'on', max_connections: '100' },
      env: {
        DB_POOL_MAX: '20',
        REQUEST_DEADLINE_MS: '4000',
        DB_STATEMENT_TIMEOUT_MS: '3000',
        DB_CONNECT_TIMEOUT_MS: '1000',
        DB_COMMIT_TIMEOUT_MS: '1000',
        DB_POOL_WAIT_MS: '1000',
        DB_RETRY_BASE_DELAY_MS: '50',
        DB_RETRY_MAX_DELAY_MS: '200',
        DB_READINESS_PROBE_MS: '200',
        ACCOUNT_LOCK_WAIT_MS: '3000',
        ACCOUNT_WRITE_ATTEMPTS: '1',
        // One customer holds all the accounts, more than a customer may open by default (adr/0041).
        MAX_OPEN_ACCOUNTS_PER_CUSTOMER: String(LOCKED_ACCOUNTS + FREE_ACCOUNTS),
        IDEMPOTENCY_STORE_BUDGET_MS: '500',
        IDEMPOTENCY_RELEASE_BUDGET_MS: '500',
      },
    });
    ({ cluster, url, api, bank: b } = setup);
    ada = await b.signUp();
    accounts.push(ada.accountId);
    for (let i = 1; i < LOCKED_ACCOUNTS + FREE_ACCOUNTS; i++) accounts.push(await b.openAccount(ada, `Pot ${i}`));
  }, 120_000);
  afterAll(() => setup?.stop());

  /** Holds the row locks of the first LOCKED_ACCOUNTS accounts, so their deposits wait mid-transaction. */
  async function holdLocks(): Promise<pg.Client> {
    const holder = new pg.Client({ connectionString: url, application_name: 'test-holder' });
    holder.on('error', () => {}); // the fault ends this session too
    await holder.connect();
    await holder.query('BEGIN');
    await holder.query('SELECT id FROM accounts WHERE id = ANY($1::uuid[]) FOR UPDATE', [accounts.slice(0, LOCKED_ACCOUNTS)]);
    return holder;
  }

  async function injure(fault: Fault): Promise<void> {
    if (fault === 'pg_terminate_backend') {
      // Five rounds: every backend of the API ends, again and again, under load.
      for (let round = 0; round < 5; round++, await sleep(300)) {
        await query(url, 'SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = $1 AND pid <> pg_backend_pid()', ['tidewater']);
      }
      return;
    }
    await (fault.endsWith('fast') ? cluster.stop() : cluster.crash());
    await sleep(1_500);
    await cluster.start();
  }

  it.each<[Fault]>([['stop -m fast'], ['stop -m immediate'], ['pg_terminate_backend']])(
    'lives through %s with 16+ requests mid-transaction, answers only 201/409/503, and 2xx within 1 s of the database being back',
    async (fault) => {
      const holder = await holdLocks();
      const answers: Array<{ status: number; at: number }> = [];
      let running = true;
      const load = accounts.map(async (accountId) => {
        while (running) {
          const reply = await b.deposit(ada, accountId, 100).catch((error: unknown) => ({ status: -1, body: String(error) }));
          answers.push({ status: reply.status, at: Date.now() });
          if (reply.status === -1) return; // the API is gone: nothing more to learn
          if (reply.status !== 201) await sleep(100);
        }
      });

      let inTransaction = 0;
      for (const giveUpAt = Date.now() + 15_000; inTransaction < 16 && Date.now() < giveUpAt; await sleep(5)) {
        inTransaction = (await query<{ n: number }>(url, IN_TRANSACTION))[0]!.n;
      }
      expect(inTransaction, 'the API sessions inside a transaction when the fault hit').toBeGreaterThanOrEqual(16);
      await injure(fault);
      const backAt = Date.now();
      await sleep(2_500);
      running = false;
      await Promise.all(load);
      await holder.end().catch(() => {});

      expect({ exitCode: api.child.exitCode, signal: api.child.signalCode }, api.logLines.slice(-5).join('\n')).toEqual({ exitCode: null, signal: null });
      expect((await call(api.url, 'GET', '/api/health')).status).toBe(200);
      const statuses = [...new Set(answers.map((answer) => answer.status))].sort();
      expect(statuses.filter((status) => ![201, 409, 503].includes(status))).toEqual([]);
      const firstOkAfterBack = answers.find((answer) => answer.status === 201 && answer.at >= backAt)?.at;
      expect(firstOkAfterBack, 'a 2xx after the database was back').toBeDefined();
      expect(firstOkAfterBack! - backAt).toBeLessThan(1_000);
      const verified = await runAuditVerify({ DATABASE_URL: url });
      expect([verified.code, verified.stderr]).toEqual([0, '']);
    },
    60_000,
  );
});
