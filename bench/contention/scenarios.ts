/**
 * The contention scenarios (run by `npm run bench:contention -w bench`, run.ts, and by
 * `npm run bench`): against the real API on loopback and its database, side by side in the same run, the bank's path
 * (HTTP to the API: ordered row locks, bounded lock waits, 8 attempts, busy only after a
 * re-check) and a naive baseline on the same database (naiveBaseline.ts: optimistic
 * version check, 8 attempts, no ordering):
 *
 * 1. N parallel deposits into one account (N = 24, 100, 500; BENCH_SIZES overrides);
 * 2. N parallel transfers between two accounts, half in each direction;
 * 3. 24 parallel withdrawals from an account that covers the 21 small ones and one of the
 *    3 large ones.
 *
 * For each: answers that moved money, busy answers, refusals, anything else, p50/p99
 * latency, and the ledger check (each balance is the sum of its ledger rows; the total is
 * what the run says: no lost update, money conserved). Bounded: every request times out
 * after 120 s and each scenario after BENCH_SCENARIO_TIMEOUT_MS (180 s); the baseline
 * starts no attempt after BENCH_NAIVE_BUDGET_MS of a scenario (default: the bank's own
 * request deadline, 40 s: every request of a scenario starts at once, so each gets as long
 * as the bank would give it) and counts what is left as "other" (its opposite transfers
 * deadlock, and each deadlock costs PostgreSQL's deadlock_timeout of 1 s to notice).
 */
import pg from 'pg';
import { defaults } from '../../server/src/config.ts';
import { apiDeposit, apiTransfer, apiWithdraw, authorizations, openAccount, signUp } from './apiPath.ts';
import { ledgerCheck } from './ledgerCheck.ts';
import { naiveBaseline } from './naiveBaseline.ts';
import { runAll, type Tally } from './stats.ts';

const scenarioTimeoutMs = Number(process.env.BENCH_SCENARIO_TIMEOUT_MS ?? 180_000);
/** How long the naive baseline keeps starting attempts in one scenario: the bank's own deadline (bench/METHOD.md). */
export const naiveBudgetMs = Number(process.env.BENCH_NAIVE_BUDGET_MS ?? defaults.requestDeadlineMs);

/** One scenario at one size on one path (the bank's path may run several times: `run` counts from 1). */
export interface Row extends Tally {
  scenario: string;
  n: number;
  path: 'bank' | 'naive';
  run: number;
  ledger: string;
}

/** Runs one scenario under its time bound. */
async function bounded<T>(name: string, work: () => Promise<T>): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${name} took longer than ${scenarioTimeoutMs} ms`)), scenarioTimeoutMs);
  });
  try {
    return await Promise.race([work(), timeout]);
  } finally {
    clearTimeout(timer);
  }
}

/** Prints the rows as a table. */
export function print(rows: Row[]): void {
  const header = ['scenario', 'N', 'path', 'moved', 'busy', 'refused', 'other', 'p50 ms', 'p99 ms', 'wall s', 'ledger check'];
  const lines = rows.map((r) => [r.scenario, r.n, r.run > 1 ? `${r.path} #${r.run}` : r.path, r.ok, r.busy, r.refused, r.other, r.p50.toFixed(0), r.p99.toFixed(0), (r.wallMs / 1000).toFixed(1), r.ledger].map(String));
  const widths = header.map((h, i) => Math.max(h.length, ...lines.map((l) => l[i]!.length)));
  const format = (cells: string[]) => cells.map((c, i) => c.padEnd(widths[i]!)).join('  ');
  console.log(['', format(header), format(widths.map((w) => '-'.repeat(w))), ...lines.map(format)].join('\n'));
  for (const r of rows.filter((row) => row.others.length)) console.log(`  other answers (${r.scenario}, N=${r.n}, ${r.path}): ${r.others.join(', ')}`);
}

/**
 * Runs every scenario at each of `sizes` against the API at `apiUrl` and its database at
 * `databaseUrl`; answers the rows (also when one failed part-way, then it rethrows after).
 * `bankRuns` runs the bank's path of the deposits and the transfers that many times, each
 * on fresh accounts (`npm run bench -- --runs 3` reports the median of their p99s); the
 * naive baseline runs once (its transfers spend their whole budget).
 */
export async function runContention(apiUrl: string, databaseUrl: string, sizes: number[], options: { naiveBudgetMs?: number; bankRuns?: number } = {}): Promise<Row[]> {
  const budgetMs = options.naiveBudgetMs ?? naiveBudgetMs;
  const runsOf = (path: Row['path']) => Array.from({ length: path === 'bank' ? (options.bankRuns ?? 1) : 1 }, (_, i) => i + 1);
  const pool = new pg.Pool({ connectionString: databaseUrl, max: 12 });
  let giveUpAt = 0;
  const naive = naiveBaseline(pool, () => giveUpAt || Date.now() + budgetMs);
  const rows: Row[] = [];
  const record = async (scenario: string, n: number, path: Row['path'], run: number, tallyOf: () => Promise<Tally>, check: () => Promise<string>) => {
    giveUpAt = Date.now() + budgetMs;
    const result = await bounded(`${scenario} N=${n} ${path}`, tallyOf);
    rows.push({ ...result, scenario, n, path, run, ledger: await check() });
    console.error(`done: ${scenario} N=${n} ${path}${run > 1 ? ` #${run}` : ''}`);
  };
  try {
    const customer = await signUp(apiUrl, 'bench');
    // Warm both paths up (JIT, pools, prepared plans) so the first scenario is not the cold one.
    const warmUp = await openAccount(customer, 'warm-up');
    for (let i = 0; i < 20; i++) {
      await apiDeposit(customer, warmUp, 1);
      await naive.deposit(warmUp, 1);
    }

    for (const n of sizes) {
      for (const path of ['bank', 'naive'] as const) for (const run of runsOf(path)) {
        const accountId = await openAccount(customer, `deposits ${n} ${path} ${run}`);
        let moved = 0n;
        await record('deposits to one account', n, path, run, async () => {
          const result = await runAll(n, () => (path === 'bank' ? apiDeposit(customer, accountId, 100) : naive.deposit(accountId, 100)));
          moved = BigInt(result.ok) * 100n;
          return result;
        }, () => ledgerCheck(pool, [accountId], moved));
      }
    }

    for (const n of sizes) {
      for (const path of ['bank', 'naive'] as const) for (const run of runsOf(path)) {
        const fund = n * 100;
        const a = await openAccount(customer, `transfers A ${n} ${path} ${run}`, fund);
        const b = await openAccount(customer, `transfers B ${n} ${path} ${run}`, fund);
        await record('transfers A<->B', n, path, run, () =>
          runAll(n, (i) => {
            const [from, to] = i % 2 === 0 ? [a, b] : [b, a];
            return path === 'bank' ? apiTransfer(customer, from, to, 100) : naive.transfer(from, to, 100);
          }),
        () => ledgerCheck(pool, [a, b], BigInt(2 * fund)));
      }
    }

    // 21 withdrawals of 1.00 and 3 of 10.00 from 31.00: all the small ones and one large one fit.
    const amounts = [...Array(21).fill(100), 1_000, 1_000, 1_000] as number[];
    const fund = 21 * 100 + 1_000;
    for (const path of ['bank', 'naive'] as const) {
      const accountId = await openAccount(customer, `withdrawals ${path}`, fund);
      const authorizationIds = path === 'bank' ? await authorizations(customer, accountId, amounts) : [];
      let withdrawn = 0n;
      await record('withdrawal race', amounts.length, path, 1, () =>
        runAll(amounts.length, async (i) => {
          const result = path === 'bank' ? await apiWithdraw(customer, accountId, amounts[i]!, authorizationIds[i]!) : await naive.withdraw(accountId, amounts[i]!);
          if (result.outcome === 'ok') withdrawn += BigInt(amounts[i]!);
          return result;
        }),
      () => ledgerCheck(pool, [accountId], BigInt(fund) - withdrawn));
    }
  } finally {
    await pool.end();
  }
  return rows;
}

