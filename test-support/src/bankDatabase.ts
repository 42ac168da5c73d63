/**
 * What the API's tests do to the bank's database behind the API's back: read it, hold a row
 * lock from a separate connection, wait until the API's transaction queues behind that
 * lock, tamper with rows, and run `npm run audit:verify` against it.
 */
import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { setTimeout as sleep } from 'node:timers/promises';
import pg from 'pg';

const root = fileURLToPath(new URL('../..', import.meta.url));

/** One query on a fresh connection. */
export async function query<T extends pg.QueryResultRow = Record<string, unknown>>(url: string, text: string, values: unknown[] = []): Promise<T[]> {
  const client = new pg.Client({ connectionString: url });
  client.on('error', () => {}); // a server stopped mid-query must not end the test process
  await client.connect();
  try {
    return (await client.query<T>(text, values)).rows;
  } finally {
    await client.end();
  }
}

/**
 * Runs `fn` while a separate connection holds `lockSql` (e.g. `SELECT … FOR UPDATE`) in an
 * open transaction; `inside` may run more statements in that transaction before it ends.
 */
export async function holdingLock<T>(url: string, lockSql: string, values: unknown[], fn: (inside: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: url });
  client.on('error', () => {}); // a server stopped mid-query must not end the test process
  await client.connect();
  try {
    await client.query('BEGIN');
    await client.query(lockSql, values);
    const result = await fn(client);
    await client.query('ROLLBACK').catch(() => {});
    return result;
  } finally {
    await client.end();
  }
}

/** Holds the account's row lock (what every money send waits for) while `fn` runs. */
export const holdingAccount = <T>(url: string, accountId: string, fn: (inside: pg.Client) => Promise<T>) =>
  holdingLock(url, 'SELECT id FROM accounts WHERE id = $1 FOR UPDATE', [accountId], fn);

/** Polls how many backends wait for a lock until `done` says so, for at most `timeoutMs`. */
async function untilLockWaiters(url: string, done: (waiting: number) => boolean, timeoutMs: number, failure: string): Promise<void> {
  const started = Date.now();
  while (Date.now() - started < timeoutMs) {
    const [row] = await query<{ waiting: number }>(url, "SELECT count(*)::int AS waiting FROM pg_stat_activity WHERE wait_event_type = 'Lock'");
    if (done(row?.waiting ?? 0)) return;
    await sleep(5);
  }
  throw new Error(failure);
}

/** Resolves once some transaction of the API waits for a row lock (it passed `prepare`). */
export const untilSomeoneWaitsForALock = (url: string, timeoutMs = 10_000) =>
  untilLockWaiters(url, (waiting) => waiting > 0, timeoutMs, 'no transaction started waiting for a lock');

/**
 * Resolves once nothing waits for a lock: e.g. a statement cancelled while the database was
 * paused has taken its cancel, so releasing the lock it waited for cannot let it commit.
 */
export const untilNoOneWaitsForALock = (url: string, timeoutMs = 10_000) =>
  untilLockWaiters(url, (waiting) => waiting === 0, timeoutMs, 'a statement still waits for a lock');

/** The ledger rows a key wrote, and the record of the key. */
export async function keyState(url: string, key: string) {
  const ledger = await query<{ account_id: string; amount_minor: string }>(url, 'SELECT account_id, amount_minor FROM ledger_entries WHERE idempotency_key = $1', [key]);
  const records = await query<{ status: string; owner_token: string; landed_at: Date | null }>(url, 'SELECT status, owner_token, landed_at FROM idempotency_records WHERE key = $1', [key]);
  return { ledger, records };
}

/** Waits (up to 10 s) for a failed send's claim to be released behind its answer; answers the key's state then. */
export async function untilKeyReleased(url: string, key: string): Promise<Awaited<ReturnType<typeof keyState>>> {
  let state = await keyState(url, key);
  // Within the release's own budget (3 s) after the abandoned work ends, which on a loaded 2-core runner can take seconds more.
  for (let i = 0; i < 100 && state.records.length > 0; i++) {
    await sleep(100);
    state = await keyState(url, key);
  }
  return state;
}

/** `npm run audit:verify` from the repository root against `env` (DATABASE_URL or DATA_DIR). */
export function runAuditVerify(env: Record<string, string>): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile('npm', ['run', '--silent', 'audit:verify'], { cwd: root, env: { ...process.env, ...env }, timeout: 60_000 }, (error, stdout, stderr) =>
      resolve({ code: error ? Number((error as { code?: number }).code ?? 1) : 0, stdout, stderr }),
    );
  });
}
