/**
 * `npm run bench` (bench/METHOD.md): one bounded run against a fresh throwaway
 * PostgreSQL (test-support's pgCluster: fsync off, synchronous_commit off, full_page_writes
 * off; a benchmark of our code, not of the disk) and the real API processes, of every
 * scenario: limit (lib/limitScenario.ts), overhead, outage timings, replica, contention (lib/scenarios.ts), the
 * step-ups and the API's start under node against tsx (lib/runtimeScenarios.ts), the
 * access-token revocation check (lib/revocationScenario.ts). Every
 * headline figure is a ratio against a baseline measured in the same run.
 *
 *   npm run bench                  24 clients, 8 s per measurement, contention 24,100,500, both chains
 *   npm run bench -- --runs 3      limit, overhead and the bank's contention 3 times; each ratio (and p99) is the median
 *   npm run bench -- --smoke       2 s per measurement, contention 24, the scaled chain only (CI)
 *   npm run bench -- --seconds 4   another measurement length
 *   npm run bench -- --warm-up 15  seconds of deposits that warm each fresh API of the overhead scenario, after a third as long of GETs (default 15; 2 with --smoke)
 *   npm run bench -- --only overhead,limit   only those scenarios (to look at one; the checks count only them)
 *   npm run bench -- --only overhead --control   the overhead's A/A control: both sides with the layers on
 *
 * Prints one table to stdout (progress goes to stderr), writes
 * `bench/.results/<ISO date-time>.json` and `.svg` beside it, and ends with
 * `bench: N checks passed, M failed` (one check per scenario: it ran and every ratio is
 * finite), which CI counts; the exit status is 1 when a check failed.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { checks, scenarioNames, svg, table, type BenchResult, type ScenarioName, type ScenarioResult } from './lib/report.ts';
import { naiveBudgetMs } from './contention/scenarios.ts';
import { limitScenario } from './lib/limitScenario.ts';
import { contentionScenario, outageScenario, overheadScenario, replicaScenario, startBench, type Size } from './lib/scenarios.ts';
import { revocationScenario } from './lib/revocationScenario.ts';
import { startupScenario, stepUpScenario } from './lib/runtimeScenarios.ts';

const resultsDir = fileURLToPath(new URL('./.results/', import.meta.url));

function valueOf(args: string[], flag: string): string | undefined {
  return args.includes(flag) ? args[args.indexOf(flag) + 1] : undefined;
}

/** The scenarios to run: all, or those `--only` names. */
function scenariosOf(args: string[]): Set<ScenarioName> {
  const only = valueOf(args, '--only');
  if (only === undefined) return new Set(scenarioNames);
  const names = only.split(',');
  const unknown = names.filter((name) => !(scenarioNames as readonly string[]).includes(name));
  if (unknown.length || !names.length) throw new Error(`--only takes a comma-separated list of ${scenarioNames.join(', ')}; got "${only}"`);
  return new Set(names as ScenarioName[]);
}

function sizeOf(args: string[]): Size {
  const value = (flag: string) => valueOf(args, flag);
  const smoke = args.includes('--smoke');
  const runs = Number(value('--runs') ?? 1);
  const seconds = Number(value('--seconds') ?? (smoke ? 2 : 8));
  const warmUpSeconds = Number(value('--warm-up') ?? (smoke ? 2 : 15));
  if (!(runs >= 1) || !(seconds > 0) || !(warmUpSeconds >= 0)) throw new Error('usage: npm run bench -- [--smoke] [--runs N] [--seconds S] [--warm-up S]');
  const control = args.includes('--control');
  return { clients: 24, seconds, runs: Math.floor(runs), contentionSizes: smoke ? [24] : [24, 100, 500], realDefaults: !smoke, naiveBudgetMs: smoke ? 5_000 : naiveBudgetMs, control, warmUpSeconds };
}

/** Runs one scenario; a failure is recorded (its check then fails), not thrown. */
async function scenario(name: string, work: () => Promise<ScenarioResult>): Promise<ScenarioResult> {
  const started = Date.now();
  console.error(`bench: ${name} …`);
  try {
    const result = await work();
    console.error(`bench: ${name} done in ${((Date.now() - started) / 1000).toFixed(0)} s`);
    return result;
  } catch (error) {
    console.error(`bench: ${name} failed:`, error);
    return { name, ratios: [], figures: [], notes: [], error: error instanceof Error ? error.message.split('\n')[0]! : String(error) };
  }
}

async function main(args: string[]): Promise<number> {
  const size = sizeOf(args);
  const wanted = scenariosOf(args);
  const run = async (name: ScenarioName, work: () => Promise<ScenarioResult>) => {
    if (wanted.has(name)) scenarios.push(await scenario(name, work));
  };
  const startedAt = new Date().toISOString();
  const bench = await startBench();
  const scenarios: ScenarioResult[] = [];
  let postgres = '';
  try {
    postgres = (await bench.pool.query<{ v: string }>('SHOW server_version')).rows[0]!.v;
    await run('limit', () => limitScenario(bench, size));
    await run('overhead', () => overheadScenario(bench, size));
    await run('contention', () => contentionScenario(bench, size));
    await run('stepup', () => stepUpScenario(bench, size));
    await run('startup', () => startupScenario(bench, size));
    await run('revocation', () => revocationScenario(bench, size));
  } finally {
    await bench.pool.end();
    await bench.api.stop();
    await bench.cluster.destroy();
  }
  await run('replica', () => replicaScenario(size));
  await run('outage', () => outageScenario(size));

  const result: BenchResult = {
    startedAt,
    finishedAt: new Date().toISOString(),
    size: args.includes('--smoke') ? 'smoke' : 'default',
    runs: size.runs,
    machine: { cpus: availableParallelism(), node: process.version, postgres },
    notes: [
      `${size.clients} concurrent clients, ${size.seconds} s per measurement; limit, overhead and the bank's contention ${size.runs} time(s), each ratio and the bank's p99 the median`,
      'one throwaway PostgreSQL per part (fsync, synchronous_commit and full_page_writes off): this measures our code, not the disk',
      `${availableParallelism()} cores shared by the load generator, the API and PostgreSQL (and whatever else runs): ratios, not absolute numbers, are the result`,
    ],
    scenarios,
  };
  mkdirSync(resultsDir, { recursive: true });
  const stamp = startedAt.replace(/[:.]/g, '-');
  const jsonPath = join(resultsDir, `${stamp}.json`);
  writeFileSync(jsonPath, `${JSON.stringify(result, null, 2)}\n`);
  writeFileSync(join(resultsDir, `${stamp}.svg`), svg(result));

  const verdicts = checks(result, wanted);
  const lines = ['', table(result), ''];
  for (const s of scenarios) for (const note of s.notes) lines.push(`  ${s.name}: ${note}`);
  for (const note of result.notes) lines.push(`  note: ${note}`);
  lines.push('', `results: ${jsonPath} (and .svg)`);
  for (const v of verdicts) lines.push(`check ${v.passed ? 'passed' : 'FAILED'}: ${v.scenario} (${v.why})`);
  const failed = verdicts.filter((v) => !v.passed).length;
  lines.push(`bench: ${verdicts.length - failed} checks passed, ${failed} failed`);
  console.log(lines.join('\n'));
  return failed ? 1 : 0;
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error('bench failed:', error);
    console.log(`bench: 0 checks passed, ${scenarioNames.length} failed`);
    process.exit(1);
  },
);
