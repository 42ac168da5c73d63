/**
 * The images run without Docker (adr/0020). For each Dockerfile: the build stage's commands
 * run in this checkout (all but `npm ci`: it is installed), the runtime stage is emulated in
 * a temporary directory (its COPY --from=build lines copied from this checkout, its RUN
 * lines run there, so `npm ci --omit=dev` downloads the production dependencies), and its
 * CMD runs as an unprivileged user with the image's ENV and docker-compose.yml's
 * environment, on a throwaway primary and streaming standby set up by the compose file's own
 * init script (which makes the standby synchronous). Its HEALTHCHECK command must pass, the
 * probes answer, and a sign-up and a deposit reach the standby.
 *
 *   npx tsx contract-tests/deploy/smoke.ts [--single-host]
 *
 * `--single-host` keeps the first host of each database URL, for code that takes only one.
 * Not part of `npm test` or CI: it needs the package registry and takes a minute or two.
 */
import { execFile, execSync, spawn, type ChildProcess } from 'node:child_process';
import { randomBytes, randomUUID } from 'node:crypto';
import { chmodSync, cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { parse } from 'yaml';
import { pgBinaries } from '@tidewater/test-support/pgBinaries';
import { startPrimary, startReplica } from '@tidewater/test-support/pgCluster';
import { freePort } from '@tidewater/test-support/pgProcesses';
import { uniqueHandle } from '@tidewater/test-support/handles';
import { execForm, parseDockerfile } from './dockerfile.ts';

const repoRoot = fileURLToPath(new URL('../../', import.meta.url));
const singleHost = process.argv.includes('--single-host');
/** The image runs as `node`; here, when we are root, as nobody. */
const unprivileged = process.getuid?.() === 0 ? { uid: 65534, gid: 65534 } : {};

interface Image {
  dir: string;
  env: Record<string, string>;
  cmd: string[];
  healthcheck: string[];
  startPeriodMs: number;
}

function run(command: string, cwd: string, env: Record<string, string> = {}): void {
  console.log(`  RUN ${command.slice(0, 100)}${command.length > 100 ? '…' : ''}`);
  execSync(command, { cwd, stdio: ['ignore', 'ignore', 'inherit'], env: { ...process.env, ...env } });
}

/** Runs the build stage's commands here and assembles the runtime stage in a temporary directory. */
function emulate(file: string): Image {
  const stages = parseDockerfile(readFileSync(join(repoRoot, file), 'utf8'));
  const build = stages.find((stage) => stage.name === 'build');
  const runtime = stages.at(-1);
  if (!build || !runtime) throw new Error(`${file}: no build and runtime stages`);
  for (const { keyword, args } of build.instructions) if (keyword === 'RUN' && !/^npm ci\b/.test(args)) run(args, repoRoot);
  const dir = mkdtempSync('/tmp/tidewater-image-');
  chmodSync(dir, 0o755);
  const env: Record<string, string> = {};
  const started = Date.now();
  for (const { keyword, args } of runtime.instructions) {
    if (keyword === 'COPY') {
      const paths = args.split(/\s+/).filter((part) => !part.startsWith('--'));
      const dest = paths.pop() ?? '';
      for (const source of paths) {
        const to = dest.endsWith('/') ? join(dir, dest, source.split('/').pop() ?? '') : join(dir, dest);
        mkdirSync(dirname(to), { recursive: true });
        cpSync(join(repoRoot, source.replace(/^\/app\//, '')), to, { recursive: true });
      }
    } else if (keyword === 'RUN') run(args, dir, env);
    else if (keyword === 'ENV') {
      for (const pair of args.split(/\s+/)) env[pair.slice(0, pair.indexOf('='))] = pair.slice(pair.indexOf('=') + 1);
    }
  }
  execSync(`chmod -R a+rX ${dir}`);
  const last = (keyword: string) => runtime.instructions.filter((i) => i.keyword === keyword).at(-1)?.args ?? '';
  const startPeriod = /--start-period=(\d+)s/.exec(last('HEALTHCHECK'))?.[1] ?? '30';
  const size = execSync(`du -sm ${join(dir, 'node_modules')}`).toString().split('\t')[0];
  console.log(`  runtime stage assembled in ${((Date.now() - started) / 1000).toFixed(1)} s; node_modules ${size} MB`);
  return { dir, env, cmd: execForm(last('CMD')) ?? [], healthcheck: execForm(last('HEALTHCHECK')) ?? [], startPeriodMs: Number(startPeriod) * 1000 };
}

/** docker-compose.yml's environment of `service`, with `${NAME…}` taken from `secrets`. */
function composeEnvironment(compose: { services: Record<string, { environment?: Record<string, unknown> }> }, service: string, secrets: Record<string, string>): Record<string, string> {
  return Object.fromEntries(
    Object.entries(compose.services[service]?.environment ?? {}).map(([name, value]) => [
      name,
      String(value).replace(/\$\{([A-Z_][A-Z0-9_]*)[^}]*\}/g, (_, variable: string) => secrets[variable] ?? ''),
    ]),
  );
}

function exitCodeOf(command: string[], env: Record<string, string>): Promise<number> {
  return new Promise((resolve) => {
    execFile(process.execPath, command.slice(1), { env: { ...process.env, ...env }, timeout: 10_000 }, (error) =>
      resolve(error ? (typeof error.code === 'number' ? error.code : -1) : 0),
    );
  });
}

const children: ChildProcess[] = [];

/** Starts the image's CMD and resolves the seconds until its HEALTHCHECK first passes. */
async function start(name: string, image: Image, env: Record<string, string>): Promise<number> {
  const started = Date.now();
  const [node, ...args] = image.cmd;
  if (node !== 'node') throw new Error(`${name}: CMD runs ${node}`);
  const child = spawn(process.execPath, args, { cwd: image.dir, env: { PATH: process.env.PATH ?? '', HOME: '/tmp', ...env }, stdio: ['ignore', 'pipe', 'pipe'], ...unprivileged });
  children.push(child);
  const log: string[] = [];
  child.stdout?.on('data', (chunk: Buffer) => log.push(chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => log.push(chunk.toString()));
  while (Date.now() - started < image.startPeriodMs) {
    if (child.exitCode !== null) break;
    if ((await exitCodeOf(image.healthcheck, env)) === 0) return (Date.now() - started) / 1000;
    await sleep(250);
  }
  throw new Error(`${name}: the HEALTHCHECK did not pass within ${image.startPeriodMs} ms:\n${log.join('').slice(-4000)}`);
}

async function expectStatus(url: string, status: number, init?: RequestInit): Promise<Response> {
  const response = await fetch(url, { ...init, signal: AbortSignal.timeout(10_000) });
  if (response.status !== status) throw new Error(`${init?.method ?? 'GET'} ${url}: ${response.status}, not ${status}: ${await response.text()}`);
  console.log(`  ${init?.method ?? 'GET'} ${url.replace(/^http:\/\/[^/]+/, '')} ${response.status}`);
  return response;
}

async function main(): Promise<void> {
  const compose = parse(readFileSync(join(repoRoot, 'docker-compose.yml'), 'utf8'), { merge: true }) as {
    services: Record<string, { environment?: Record<string, unknown> }>;
    configs: Record<string, { content: string }>;
  };
  const secretNames = readFileSync(join(repoRoot, '.env.example'), 'utf8').split('\n').filter((line) => /^[A-Z_]+=/.test(line)).map((line) => line.split('=')[0] ?? '');
  const secrets = Object.fromEntries(secretNames.map((name) => [name, randomBytes(24).toString('hex')]));

  console.log('server/Dockerfile');
  const apiImage = emulate('server/Dockerfile');
  console.log('bff/Dockerfile');
  const bffImage = emulate('bff/Dockerfile');

  // The databases: a primary and a streaming standby, then the compose file's init script on the primary.
  const primary = await startPrimary();
  const standby = await startReplica(primary);
  const admin = new pg.Client({ connectionString: primary.urlFor('tidewater') });
  await admin.connect();
  let standbyName = '';
  for (let i = 0; i < 40 && !standbyName; i++) {
    standbyName = (await admin.query<{ application_name: string }>('SELECT application_name FROM pg_stat_replication')).rows[0]?.application_name ?? '';
    if (!standbyName) await sleep(250);
  }
  if (!standbyName) throw new Error('the standby is not streaming');
  const binDir = pgBinaries().dir;
  if (!existsSync(join(binDir, 'psql'))) throw new Error(`no psql in ${binDir}: the init script needs it`);
  // The test cluster's standby names itself by application_name, not compose's cluster_name.
  const init = compose.configs['primary-init']?.content.replaceAll('$$', '$').replaceAll('db_standby', standbyName) ?? '';
  execSync('bash', {
    input: init,
    stdio: ['pipe', 'ignore', 'inherit'],
    env: { ...process.env, ...composeEnvironment(compose, 'db-primary', secrets), PATH: `${binDir}:${process.env.PATH ?? ''}`, PGHOST: '127.0.0.1', PGPORT: String(primary.port), PGDATA: join(primary.dir, 'data') },
  });
  await admin.query('SELECT pg_reload_conf()');
  let syncState = '';
  for (let i = 0; i < 40 && syncState !== 'sync'; i++) {
    await sleep(250);
    syncState = (await admin.query<{ sync_state: string }>('SELECT sync_state FROM pg_stat_replication')).rows[0]?.sync_state ?? '';
  }
  if (syncState !== 'sync') throw new Error(`the standby is ${syncState || 'not streaming'}, not sync, after the init script`);
  console.log(`databases: primary ${primary.port}, standby ${standby.port} (${standbyName}: ${syncState})`);

  const hosts = (text: string) => {
    const local = text.replaceAll('db-primary:5432', `127.0.0.1:${primary.port}`).replaceAll('db-standby:5432', `127.0.0.1:${standby.port}`);
    return singleHost ? local.replace(/@([^,/]+)(?:,[^/]+)?\//, '@$1/') : local;
  };
  const ports = async (env: Record<string, string>) => {
    for (const name of Object.keys(env)) if (name.endsWith('_PORT')) env[name] = String(await freePort());
    return env;
  };

  const apiEnv = await ports({ ...apiImage.env, ...Object.fromEntries(Object.entries(composeEnvironment(compose, 'api', secrets)).map(([k, v]) => [k, hosts(v)])) });
  const apiSeconds = await start('the API', apiImage, apiEnv);
  const api = `http://127.0.0.1:${apiEnv.API_PORT}`;
  console.log(`the API: HEALTHCHECK passed after ${apiSeconds.toFixed(1)} s`);
  await expectStatus(`${api}/api/ready`, 200);

  const bffEnv = await ports({ ...bffImage.env, ...Object.fromEntries(Object.entries(composeEnvironment(compose, 'bff', secrets)).map(([k, v]) => [k, hosts(v)])) });
  bffEnv.API_URL = api;
  const bffSeconds = await start('the BFF', bffImage, bffEnv);
  const bff = `http://127.0.0.1:${bffEnv.BFF_PORT}`;
  console.log(`the BFF: HEALTHCHECK passed after ${bffSeconds.toFixed(1)} s`);
  for (const path of ['/bff/ready', '/', '/docs']) await expectStatus(`${bff}${path}`, 200);

  // Money through the API's image: it lands on the synchronous standby.
  const json = { 'content-type': 'application/json' };
  const handle = uniqueHandle('smoke');
  const identity = { email: `${handle}@example.com`, password: 'correct horse battery', displayName: 'Smoke Test', handle, pin: '4821' };
  const registered = (await (await expectStatus(`${api}/api/auth/register`, 201, { method: 'POST', headers: json, body: JSON.stringify(identity) })).json()) as { account: { id: string } };
  const token = (await (await expectStatus(`${api}/api/auth/token`, 200, { method: 'POST', headers: json, body: JSON.stringify({ email: identity.email, password: identity.password }) })).json()) as { accessToken: string };
  await expectStatus(`${api}/api/accounts/${registered.account.id}/deposits`, 201, {
    method: 'POST',
    headers: { ...json, authorization: `Bearer ${token.accessToken}`, 'idempotency-key': randomUUID() },
    body: JSON.stringify({ amountMinor: 12345 }),
  });
  const reader = new pg.Client({ connectionString: standby.urlFor('tidewater') });
  await reader.connect();
  let balance: unknown;
  for (let i = 0; i < 20 && balance !== '12345'; i++) {
    balance = String((await reader.query('SELECT balance_minor FROM accounts WHERE id = $1', [registered.account.id])).rows[0]?.balance_minor);
    if (balance !== '12345') await sleep(100);
  }
  if (balance !== '12345') throw new Error(`the standby shows a balance of ${String(balance)}, not 12345`);
  console.log('the deposit is on the standby: 12345');
  await Promise.all([reader.end(), admin.end()]);
  for (const dir of [apiImage.dir, bffImage.dir]) rmSync(dir, { recursive: true, force: true });
  console.log('smoke: passed');
}

main()
  .catch((error: unknown) => {
    console.error(error);
    process.exitCode = 1;
  })
  .finally(() => {
    for (const child of children) child.kill('SIGTERM');
    setTimeout(() => process.exit(), 2_000).unref();
  });
