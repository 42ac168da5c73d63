/**
 * The bench's scenarios of adr/0053, each a ratio against a baseline measured in the same run:
 *
 * - stepup: step-ups per second with the PIN verifier (HMAC-SHA-256 under the pepper) against
 *   today's scrypt path: the same API and customers, each customer's verifier set back to a
 *   scrypt one (server/src/domain/identity/secrets.ts, the form PINs had before) before each of its
 *   step-ups, so every one is checked by scrypt in the password hashing's queue. A 503 waits
 *   its Retry-After, as a polite client does.
 * - startup: the API's start (spawn to the first 200 of /api/health, one worker, on the bench's
 *   migrated PostgreSQL) and its resident memory once ready, under `node src/main.ts` against
 *   `node --import tsx src/main.ts`, alternated, the medians compared.
 */
import { readFileSync } from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import { randomBytes } from 'node:crypto';
import { startServerProcess } from '@tidewater/test-support/serverProcess';
import { freePort, testPinPepper } from '@tidewater/test-support/apiProcess';
import { secretHashing } from '../../server/src/domain/identity/secrets.ts';
import { signUp, type ApiCustomer } from '../contention/apiPath.ts';
import { send } from './http.ts';
import { closedLoop, type LoadResult, type Operation } from './load.ts';
import { median, ratio, ratioOf, type ScenarioResult } from './report.ts';
import type { Bench, Size } from './scenarios.ts';

/** The user id behind a customer's access token (its `sub` claim). */
const userIdOf = (customer: ApiCustomer) => (JSON.parse(Buffer.from(customer.token.split('.')[1]!, 'base64url').toString('utf8')) as { sub: string }).sub;

async function stepUp(customer: ApiCustomer): Promise<true | string> {
  const { status } = await send(`${customer.baseUrl}/api/step-up`, {
    method: 'POST',
    headers: { authorization: `Bearer ${customer.token}`, 'content-type': 'application/json' },
    // A step-up approves one payment (adr/0045): a withdrawal of 1.00 from the customer's first account.
    body: JSON.stringify({ pin: customer.pin, payment: { operation: 'withdraw', fromAccountId: customer.accountId, amountMinor: 100 } }),
  });
  if (status === 201) return true;
  if (status === 503) await sleep(1_000); // Retry-After: 1 (hashing_queue)
  return `status ${status}`;
}

const describeLoad = (name: string, r: LoadResult) => `${name}: ${r.throughput.toFixed(1)}/s, p50 ${r.p50.toFixed(1)} ms, p99 ${r.p99.toFixed(1)} ms, ok ${r.ok}, failed ${r.failed}${r.failures.length ? ` (${r.failures.join('; ')})` : ''}`;

/** stepup (see the module's comment): `size.clients` customers, one per client. */
export async function stepUpScenario(bench: Bench, size: Size): Promise<ScenarioResult> {
  const customers: ApiCustomer[] = [];
  while (customers.length < size.clients) customers.push(...(await Promise.all(Array.from({ length: Math.min(4, size.clients - customers.length) }, () => signUp(bench.api.url, 'stepup')))));
  const userIds = customers.map(userIdOf);
  const scryptVerifier = await secretHashing({ hashingConcurrency: 1, hashingQueue: 0 }).hash(customers[0]!.pin);
  const setScrypt = (userId: string) => bench.pool.query('UPDATE users SET pin_hash = $1 WHERE id = $2', [scryptVerifier, userId]);

  const hmac: Operation = (client) => stepUp(customers[client]!);
  const scrypt: Operation = async (client) => {
    await setScrypt(userIds[client]!);
    return stepUp(customers[client]!);
  };
  const hmacRuns: number[] = [];
  const p50Runs: number[] = [];
  const notes: string[] = [];
  let last: { hmac: LoadResult; scrypt: LoadResult } | undefined;
  await closedLoop(size.clients, Math.min(3, size.seconds) * 1000, hmac);
  for (let run = 0; run < size.runs; run++) {
    const hmacLoad = await closedLoop(size.clients, size.seconds * 1000, hmac);
    const scryptLoad = await closedLoop(size.clients, size.seconds * 1000, scrypt);
    hmacRuns.push(ratio(hmacLoad.throughput, scryptLoad.throughput));
    p50Runs.push(ratio(hmacLoad.p50, scryptLoad.p50));
    notes.push(`run ${run + 1}: ${describeLoad('HMAC', hmacLoad)}; ${describeLoad('scrypt', scryptLoad)}`);
    last = { hmac: hmacLoad, scrypt: scryptLoad };
  }
  return {
    name: 'stepup',
    ratios: [
      ratioOf('step-ups/s, HMAC / scrypt', hmacRuns, 'scrypt PIN verifiers (before adr/0053)', '≥ 100'),
      ratioOf('step-up p50, HMAC / scrypt', p50Runs, 'scrypt PIN verifiers (before adr/0053)'),
    ],
    figures: last
      ? [
          { label: 'step-ups/s (HMAC)', value: last.hmac.throughput, unit: '/s' },
          { label: 'step-ups/s (scrypt)', value: last.scrypt.throughput, unit: '/s' },
        ]
      : [],
    notes,
  };
}

const serverDir = fileURLToPath(new URL('../../server/', import.meta.url));

/** Resident memory of `pid` in MiB (Linux's /proc). */
function rssMiB(pid: number): number {
  const line = /^VmRSS:\s+(\d+) kB$/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  return line ? Number(line[1]) / 1024 : Number.NaN;
}

/** One start of the API: ms from spawn to its first healthy answer, and its RSS then. */
async function startOnce(databaseUrl: string, nodeArgs: string[]): Promise<{ ms: number; rss: number }> {
  const port = await freePort();
  const started = performance.now();
  const api = await startServerProcess({
    name: 'the API',
    cwd: serverDir,
    // PIN_PEPPER is the run's: the API refuses to start beside verifiers under a key it is not given (adr/0064).
    env: { ...process.env, DATABASE_URL: databaseUrl, API_PORT: String(port), API_METRICS_PORT: '0', API_WORKERS: '1', LOG_LEVEL: 'warn', JWT_SECRET: randomBytes(24).toString('hex'), PIN_PEPPER: testPinPepper },
    port,
    healthPath: '/api/health',
    startTimeoutMs: 60_000,
    pollMs: 10,
    nodeArgs,
  });
  const ms = performance.now() - started;
  const rss = rssMiB(api.child.pid!);
  await api.stop();
  return { ms, rss };
}

/** startup (see the module's comment): `starts` of each, alternated, the first pair unmeasured (disk cache). */
export async function startupScenario(bench: Bench, size: Size): Promise<ScenarioResult> {
  const starts = size.seconds <= 2 ? 2 : 5;
  await startOnce(bench.databaseUrl, []);
  await startOnce(bench.databaseUrl, ['--import', 'tsx']);
  const node: Array<{ ms: number; rss: number }> = [];
  const tsx: Array<{ ms: number; rss: number }> = [];
  for (let i = 0; i < starts; i++) {
    node.push(await startOnce(bench.databaseUrl, []));
    tsx.push(await startOnce(bench.databaseUrl, ['--import', 'tsx']));
  }
  const med = (runs: Array<{ ms: number; rss: number }>, key: 'ms' | 'rss') => median(runs.map((r) => r[key]));
  return {
    name: 'startup',
    ratios: [
      ratioOf('start-up time, node / tsx', [ratio(med(node, 'ms'), med(tsx, 'ms'))], 'the same API under tsx', '≤ 1'),
      ratioOf('RSS when ready, node / tsx', [ratio(med(node, 'rss'), med(tsx, 'rss'))], 'the same API under tsx', '≤ 1'),
    ],
    figures: [
      { label: 'start-up (node)', value: med(node, 'ms'), unit: 'ms' },
      { label: 'start-up (tsx)', value: med(tsx, 'ms'), unit: 'ms' },
      { label: 'RSS when ready (node)', value: med(node, 'rss'), unit: 'MiB' },
      { label: 'RSS when ready (tsx)', value: med(tsx, 'rss'), unit: 'MiB' },
    ],
    notes: [`${starts} starts of each, alternated (medians): node ${node.map((r) => `${r.ms.toFixed(0)} ms/${r.rss.toFixed(0)} MiB`).join(', ')}; tsx ${tsx.map((r) => `${r.ms.toFixed(0)} ms/${r.rss.toFixed(0)} MiB`).join(', ')}`],
  };
}
