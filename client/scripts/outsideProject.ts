/**
 * An integrator's first hour, done literally (`npm run outside-project -w client`; CI runs it):
 * builds the docs, starts a throwaway PostgreSQL cluster, the API on it and the BFF that serves
 * the docs; then, in an empty folder outside the repository, runs the one install command the
 * docs' introduction gives (its host made the BFF's), writes the introduction's TypeScript
 * program as it stands, compiles it with the folder's own TypeScript under `strict`, and runs it
 * against the API. The program deposits, withdraws with a step-up and pays by handle; the
 * bank's database must then hold each send's movements exactly once and the balances they
 * make. Exits 1 on the first thing that is not so; prints the time of each step.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parse } from 'yaml';
import { startApi, type ApiProcess } from '../../test-support/src/apiProcess.ts';
import { query } from '../../test-support/src/bankDatabase.ts';
import { startBff, type BffProcess } from '../../test-support/src/bffProcess.ts';
import { startPrimary, type PgCluster } from '../../test-support/src/pgCluster.ts';

const repoRoot = fileURLToPath(new URL('../../', import.meta.url));
/** Where the docs' examples say they are served; replaced by the BFF's own address. */
const documentedDocsHost = 'http://localhost:8080';
/** The integrator's own tools, beside the client: the repository's TypeScript, Node 24's types. */
const integratorTools = ['typescript@5.9', '@types/node@24'];
/** A strict project, as a careful integrator sets one up. */
const tsconfig = {
  compilerOptions: {
    target: 'ES2022',
    module: 'NodeNext',
    moduleResolution: 'NodeNext',
    strict: true,
    noUncheckedIndexedAccess: true,
    types: ['node'],
    outDir: 'dist',
  },
  include: ['program.ts'],
};

const started = Date.now();
function step(name: string): void {
  console.log(`=== ${name} (${((Date.now() - started) / 1000).toFixed(1)} s)`);
}

/** The fenced blocks of `language` in one section (`## title`) of the introduction. */
function fencedBlocks(description: string, section: string, language: string): string[] {
  const start = description.indexOf(`## ${section}`);
  if (start < 0) throw new Error(`the introduction has no "## ${section}" section`);
  const end = description.indexOf('\n## ', start + 1);
  const text = description.slice(start, end < 0 ? undefined : end);
  return [...text.matchAll(new RegExp(`\`\`\`${language}\\n([\\s\\S]*?)\`\`\``, 'g'))].map((match) => match[1]!);
}

function run(command: string, args: string[], cwd: string, env: NodeJS.ProcessEnv = process.env): string {
  return execFileSync(command, args, { cwd, env, encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'] });
}

/** Checks passed so far; the last line says them, as CI's summary reads it (.ci/summary.mjs). */
let checksPassed = 0;
function check(what: string, have: unknown, want: unknown): void {
  if (JSON.stringify(have) !== JSON.stringify(want)) throw new Error(`${what}: ${JSON.stringify(have)}, not ${JSON.stringify(want)}`);
  checksPassed += 1;
  console.log(`ok: ${what} = ${JSON.stringify(have)}`);
}

let cluster: PgCluster | undefined;
let api: ApiProcess | undefined;
let bff: BffProcess | undefined;
const folder = mkdtempSync(path.join(tmpdir(), 'tidewater-integrator-'));
try {
  step('the docs, the client tarball among them (npm run docs -w spec)');
  run('npm', ['run', 'docs', '-w', 'spec'], repoRoot);

  step('a throwaway PostgreSQL cluster, the API and the BFF that serves the docs');
  cluster = await startPrimary();
  const databaseUrl = cluster.urlFor('tidewater');
  api = await startApi({ DATABASE_URL: databaseUrl });
  bff = await startBff({ apiUrl: api.url });

  step('the introduction, read from the served /docs/openapi.yaml');
  const description: string = parse(await (await fetch(`${bff.url}/docs/openapi.yaml`)).text()).info.description;
  const [install] = fencedBlocks(description, 'The official client (TypeScript)', 'sh');
  const [program] = fencedBlocks(description, 'The official client (TypeScript)', 'ts');
  if (!install || !program) throw new Error('the client section has no install command or no program');
  const installArgs = install.trim().replaceAll(documentedDocsHost, bff.url).split(/\s+/);
  if (installArgs[0] !== 'npm' || installArgs.length !== 3) throw new Error(`not one npm command: ${install}`);

  step(`an empty project in ${folder}: the docs' command, then the integrator's tools`);
  writeFileSync(path.join(folder, 'package.json'), `${JSON.stringify({ name: 'integrator', private: true, type: 'module' }, null, 2)}\n`);
  run('npm', [...installArgs.slice(1), '--no-audit', '--no-fund'], folder);
  run('npm', ['install', '--no-audit', '--no-fund', '--prefer-offline', ...integratorTools], folder);

  step("the docs' program, compiled by the project's own tsc under strict");
  writeFileSync(path.join(folder, 'tsconfig.json'), `${JSON.stringify(tsconfig, null, 2)}\n`);
  writeFileSync(path.join(folder, 'program.ts'), program);
  run(process.execPath, [path.join(folder, 'node_modules/typescript/bin/tsc'), '-p', folder], folder);

  step('the program, run against the API');
  const output = run(process.execPath, [path.join(folder, 'dist/program.js')], folder, { ...process.env, TIDEWATER_API: api.url });
  const result = JSON.parse(output.trim().split('\n').at(-1)!) as { ada: string; grace: string; keys: [string, string, string] };

  step('the money, from the database');
  const rowsUnder = async (key: string) =>
    (await query<{ amount: string }>(databaseUrl, 'SELECT amount_minor::text AS amount FROM ledger_entries WHERE idempotency_key = $1 ORDER BY amount_minor', [key])).map((row) => Number(row.amount));
  const balance = async (accountId: string) => Number((await query<{ balance: string }>(databaseUrl, 'SELECT balance_minor::text AS balance FROM accounts WHERE id = $1', [accountId]))[0]?.balance);
  const [deposit, withdrawal, payment] = result.keys;
  check('the deposit moved once', await rowsUnder(deposit), [100_00]);
  check('the withdrawal moved once', await rowsUnder(withdrawal), [-20_00]);
  // The key is the payer's: the payee's movement is the transfer's other leg, counted in their balance.
  check('the payment by handle moved once', await rowsUnder(payment), [-5_00]);
  check("the payer's balance", await balance(result.ada), 100_00 - 20_00 - 5_00);
  check("the payee's balance", await balance(result.grace), 5_00);
  step('done: the served client installs, type-checks strictly and moves money once per send');
} catch (error) {
  console.error(error instanceof Error ? error.message : error);
  process.exitCode = 1;
} finally {
  await bff?.stop();
  await api?.stop();
  await cluster?.destroy();
  console.log(`outside-project: ${checksPassed} checks passed, ${process.exitCode ? 1 : 0} failed`);
  rmSync(folder, { recursive: true, force: true });
}
