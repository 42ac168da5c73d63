/**
 * PostgreSQL's CPU per deposit for the API's statement alone (`money_send_claiming`, sent as
 * limit/functionAloneDeposit.ts sends it), by hand, on a throwaway cluster: ONE connection
 * deposits `--deposits` times in a row into one account (no lock waits, no other process in
 * the way), and its backend's CPU (utime + stime from /proc/<pid>/stat) over the batch is
 * divided by the deposits. Batches alternate a b b a a b …, so the machine's drift falls on
 * both sides:
 *
 * - no flag: both sides the same code, an A/A run: their gap is this method's noise;
 * - `--toggle`: side b runs the newest migration's Down text (the functions before it), side a
 *   its Up text;
 * - `--functions`: one more batch per side under `track_functions = 'all'`, printing each
 *   function's calls and self time per deposit (`pg_stat_user_functions`; the timing costs
 *   CPU of its own, so those batches are not counted in the CPU figures).
 *
 * `npx tsx bench/profile/functionCpu.ts [--deposits 3000] [--batches 8] [--toggle] [--functions]`
 * (run it under `flock /tmp/tidewater-heavy.lock`, as run.sh).
 */
import { randomUUID } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import pg from 'pg';
import { startPrimary } from '@tidewater/test-support/pgCluster';
import { migrateUp } from '../../server/src/data/connections/migrate.ts';
import { functionAloneDeposit } from '../limit/functionAloneDeposit.ts';
import { cpuMsOfProcess } from '../lib/processCpu.ts';
import { median } from '../lib/report.ts';

const { values: args } = parseArgs({
  options: { deposits: { type: 'string', default: '3000' }, batches: { type: 'string', default: '8' }, toggle: { type: 'boolean', default: false }, functions: { type: 'boolean', default: false } },
});
const deposits = Number(args.deposits);
const batches = Number(args.batches);

/** The newest migration's Up and Down texts. */
function newestMigration(): { name: string; up: string; down: string } {
  const dir = new URL('../../server/prisma/migrations/', import.meta.url);
  const name = readdirSync(dir).filter((f) => f.endsWith('.sql')).sort().at(-1)!;
  const [up, down] = readFileSync(new URL(name, dir), 'utf8').split('-- Down Migration');
  return { name, up: up!, down: down! };
}

const cluster = await startPrimary();
try {
  const url = cluster.urlFor('tidewater');
  await migrateUp({ databaseUrl: url });
  const admin = new pg.Client({ connectionString: url });
  await admin.connect();
  const userId = randomUUID();
  await admin.query(`INSERT INTO users (id, email, display_name, handle, password_hash, pin_hash) VALUES ($1, $2, 'Cpu', $3, 'x', 'x')`, [userId, `${userId}@example.test`, `cpu${userId.slice(0, 8)}`]);
  const { rows } = await admin.query<{ id: string }>(`INSERT INTO accounts (id, user_id, name) VALUES (gen_random_uuid(), $1, 'cpu') RETURNING id::text AS id`, [userId]);
  const accountId = rows[0]!.id;

  const pool = new pg.Pool({ connectionString: url, max: 1 });
  const backend = (await pool.query<{ pid: number }>('SELECT pg_backend_pid() AS pid')).rows[0]!.pid;
  const migration = newestMigration();
  const sides = args.toggle ? { a: migration.up, b: migration.down } : { a: '', b: '' };

  async function run(count: number): Promise<void> {
    for (let i = 0; i < count; i++) {
      const done = await functionAloneDeposit(pool, userId, accountId, 1);
      if (done.verdict !== 'applied') throw new Error(`a deposit answered ${done.verdict}`);
    }
  }
  async function use(side: 'a' | 'b'): Promise<void> {
    if (sides[side]) await admin.query(sides[side]);
    await run(300);
  }

  await run(1000);
  const perDeposit: Record<'a' | 'b', number[]> = { a: [], b: [] };
  for (let i = 0; i < batches; i++) {
    const side = i % 4 === 0 || i % 4 === 3 ? 'a' : 'b';
    await use(side);
    const before = cpuMsOfProcess(backend);
    await run(deposits);
    perDeposit[side].push((cpuMsOfProcess(backend) - before) / deposits);
  }
  const show = (xs: number[]) => xs.map((x) => x.toFixed(4)).join(' ');
  console.log(`${args.toggle ? `a: ${migration.name} up, b: its down` : 'A/A: a and b the same code'}; ${deposits} deposits a batch, one connection, one account`);
  for (const side of ['a', 'b'] as const) console.log(`${side}: PostgreSQL CPU ms/deposit median ${median(perDeposit[side]).toFixed(4)} (batches ${show(perDeposit[side])})`);
  console.log(`b/a: ${(median(perDeposit.b) / median(perDeposit.a)).toFixed(3)}`);

  if (args.functions) {
    await pool.query("SET track_functions = 'all'");
    for (const side of ['a', 'b'] as const) {
      await use(side);
      // What the warm-up left pending in this backend is flushed before the reset, so it is not counted.
      await pool.query('SELECT pg_stat_force_next_flush()');
      await pool.query('SELECT pg_stat_reset()');
      await run(deposits);
      await pool.query('SELECT pg_stat_force_next_flush()');
      await pool.query('SELECT 1');
      const { rows: functions } = await admin.query<{ funcname: string; calls: string; self: number; total: number }>(
        'SELECT funcname, calls, self_time AS self, total_time AS total FROM pg_stat_user_functions ORDER BY self_time DESC');
      console.log(`${side}: per deposit, µs self / total (calls)`);
      for (const f of functions) console.log(`  ${f.funcname.padEnd(22)} ${((f.self * 1000) / deposits).toFixed(1).padStart(7)} / ${((f.total * 1000) / deposits).toFixed(1).padStart(7)}  (${(Number(f.calls) / deposits).toFixed(1)})`);
    }
  }
  await pool.end();
  await admin.end();
} finally {
  await cluster.destroy();
}
