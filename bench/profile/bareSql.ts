/**
 * The bare-SQL baseline of issue 15, by hand: 24 clients (one `pg` connection each) for
 * 8 s, each deposit the minimal SQL — lock the account row, update the balance and chain
 * head, insert the ledger row and the audit row, commit — on ONE account and spread over
 * 200. Runs against the accounts bench/profile/load.ts opened (named "hot" and "a0".."a9").
 * `npx tsx bench/profile/bareSql.ts DATABASE_URL`
 */
import { createHash, randomUUID } from 'node:crypto';
import pg from 'pg';

const url = process.argv[2]!;
const clients = Number(process.env.LOAD_CLIENTS ?? 24);
const seconds = Number(process.env.LOAD_SECONDS ?? 8);

async function deposit(client: pg.Client, accountId: string): Promise<void> {
  await client.query('BEGIN');
  const { rows } = await client.query<{ audit_seq: number; audit_hash: string }>('SELECT audit_seq, audit_hash FROM accounts WHERE id = $1 FOR UPDATE', [accountId]);
  const seq = rows[0]!.audit_seq + 1;
  const hash = createHash('sha256').update(`${rows[0]!.audit_hash}|${seq}|100`).digest('hex');
  const entryId = randomUUID();
  await client.query('UPDATE accounts SET balance_minor = balance_minor + 100, version = version + 1, audit_seq = $2, audit_hash = $3 WHERE id = $1', [accountId, seq, hash]);
  await client.query(
    "INSERT INTO ledger_entries (id, account_id, kind, amount_minor, balance_after_minor, created_at) SELECT $1, $2, 'deposit', 100, balance_minor, clock_timestamp() FROM accounts WHERE id = $2",
    [entryId, accountId],
  );
  await client.query(
    "INSERT INTO audit_rows (account_id, seq, action, payload, ledger_entry_id, request_id, prev_hash, hash) VALUES ($1, $2, 'deposit', '{}'::jsonb, $3, $4, $5, $6)",
    [accountId, seq, entryId, randomUUID(), rows[0]!.audit_hash, hash],
  );
  await client.query('COMMIT');
}

async function drive(name: string, pick: (n: number) => string, pool: pg.Client[]): Promise<void> {
  const ms: number[] = [];
  const end = Date.now() + seconds * 1000;
  let n = 0;
  await Promise.all(
    pool.map(async (client) => {
      while (Date.now() < end) {
        const t = performance.now();
        await deposit(client, pick(n++));
        ms.push(performance.now() - t);
      }
    }),
  );
  ms.sort((a, b) => a - b);
  const p = (q: number) => ms[Math.min(ms.length - 1, Math.floor(q * ms.length))]!.toFixed(1);
  console.log(`${name.padEnd(14)} ${(ms.length / seconds).toFixed(0).padStart(6)}/s  p50 ${p(0.5)} ms  p99 ${p(0.99)} ms  n=${ms.length}`);
}

const pool = await Promise.all(Array.from({ length: clients }, async () => {
  const client = new pg.Client({ connectionString: url });
  client.on('error', () => {});
  await client.connect();
  return client;
}));
const hot = (await pool[0]!.query<{ id: string }>("SELECT id FROM accounts WHERE name = 'hot' LIMIT 1")).rows[0]!.id;
const spread = (await pool[0]!.query<{ id: string }>("SELECT id FROM accounts WHERE name ~ '^a[0-9]$' ORDER BY id")).rows.map((r) => r.id);
await drive('bare SQL 1', () => hot, pool);
await drive('bare SQL 200', (n) => spread[n % spread.length]!, pool);
await Promise.all(pool.map((client) => client.end()));
