/**
 * What a test's own PostgreSQL clients do to the server under the API, for the faults
 * made inside the database: hold every table locked, end the API's connections, and take
 * every connection slot. Each answers a function that undoes it.
 */
import pg from 'pg';

const APPLICATION = 'contract-tests';

async function client(url: string): Promise<pg.Client> {
  const connection = new pg.Client({ connectionString: url, application_name: APPLICATION, connectionTimeoutMillis: 5_000 });
  connection.on('error', () => {}); // the server may end it under a fault; its owner notices on use
  await connection.connect();
  return connection;
}

/** Runs one statement on a short-lived connection. */
async function queryOnce<T extends pg.QueryResultRow>(url: string, sql: string, values: unknown[] = []): Promise<T[]> {
  const connection = await client(url);
  try {
    return (await connection.query<T>(sql, values)).rows;
  } finally {
    await connection.end().catch(() => {});
  }
}

/** Holds every table of the public schema in ACCESS EXCLUSIVE mode in an open transaction, until released. */
export async function lockEveryTable(url: string): Promise<() => Promise<void>> {
  const holder = await client(url);
  const tables = await holder.query<{ name: string }>(`SELECT quote_ident(tablename) AS name FROM pg_tables WHERE schemaname = 'public'`);
  if (tables.rows.length === 0) throw new Error('no tables to lock: is the database migrated?');
  await holder.query('BEGIN');
  await holder.query(`LOCK TABLE ${tables.rows.map((t) => t.name).join(', ')} IN ACCESS EXCLUSIVE MODE`);
  return async () => {
    await holder.query('ROLLBACK').catch(() => {});
    await holder.end().catch(() => {});
  };
}

/** How many sessions of `database` wait for a lock now (other than ours). */
export async function lockWaiters(url: string, database: string): Promise<number> {
  const [row] = await queryOnce<{ n: number }>(
    url,
    `SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = $1 AND wait_event_type = 'Lock' AND application_name <> $2`,
    [database, APPLICATION],
  );
  return row?.n ?? 0;
}

/** Ends every session of `database` that is not ours (the API's pooled connections), and waits until they are gone. */
export async function endOtherSessions(url: string, database: string): Promise<number> {
  const sql = `SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = $1 AND application_name <> $2 AND pid <> pg_backend_pid()`;
  const ended = (await queryOnce(url, sql, [database, APPLICATION])).length;
  for (let tries = 0; tries < 50; tries++) {
    const [row] = await queryOnce<{ n: number }>(url, `SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = $1 AND application_name <> $2`, [database, APPLICATION]);
    if (!row?.n) return ended;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`the sessions of ${database} did not end`);
}

/**
 * Opens connections until the server refuses one (max_connections is reached), and keeps
 * them. Answers the refusal (the error every later login gets: SQLSTATE 53300) and the
 * release.
 */
export async function takeEveryConnectionSlot(url: string, limit = 500): Promise<{ refusal: unknown; held: number; release: () => Promise<void> }> {
  const held: pg.Client[] = [];
  const release = async () => {
    await Promise.all(held.splice(0).map((c) => c.end().catch(() => {})));
  };
  try {
    while (held.length < limit) held.push(await client(url));
  } catch (refusal) {
    return { refusal, held: held.length, release };
  }
  await release();
  throw new Error(`the server accepted ${limit} connections without refusing one`);
}

/** Waits until the server accepts a login again and every session of ours but the asking one has ended (the slots are free, not closing). */
export async function waitUntilAcceptingLogins(url: string, timeoutMs = 5_000): Promise<void> {
  for (const started = Date.now(); ; ) {
    let state: string;
    try {
      const [row] = await queryOnce<{ n: number }>(url, 'SELECT count(*)::int AS n FROM pg_stat_activity WHERE application_name = $1', [APPLICATION]);
      if (row?.n === 1) return;
      state = `${row?.n ?? '?'} of our sessions are still open`;
    } catch (error) {
      state = String(error);
    }
    if (Date.now() - started > timeoutMs) throw new Error(`the server is not back: ${state}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}
