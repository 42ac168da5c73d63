/**
 * A quick load for profiling the API by hand (issue 15): 24 clients for 8 s doing
 * deposits on one account, on 200 accounts, GET /api/accounts and step-ups (a right PIN
 * for a withdrawal, as the bench's stepup sends it), and bursts of
 * BURST_SIZE (500) parallel deposits into one account, as the contention scenario sends
 * them (BURST_COUNT, 3, one after another); prints throughput and,
 * when CPU_PIDS names processes (`api:123,pg:456`, as run.sh does), the CPU each of them
 * and this load spent per operation, from /proc (a process with its children).
 * `npx tsx bench/profile/load.ts http://127.0.0.1:PORT [scenario…]`.
 * Not `npm run bench` (that is bench/'s own command); this is the profiler's helper.
 */
import { randomUUID } from 'node:crypto';
import { openAccount, signUp, type ApiCustomer } from '../contention/apiPath.ts';
import pg from 'pg';
import { send } from '../lib/http.ts';
import { cpuMsOfTrees } from '../lib/processCpu.ts';

const baseUrl = process.argv[2] ?? 'http://127.0.0.1:3000';
const only = process.argv.slice(3);
const clients = Number(process.env.LOAD_CLIENTS ?? 24);
const seconds = Number(process.env.LOAD_SECONDS ?? 8);
const watched = (process.env.CPU_PIDS ?? '')
  .split(',')
  .filter(Boolean)
  .map((entry) => ({ name: entry.split(':')[0]!, pid: Number(entry.split(':')[1]) }));

/** CPU milliseconds of each watched process with all its descendants, and of this load. */
function cpuMs(): Record<string, number> {
  const trees = cpuMsOfTrees(watched.map(({ pid }) => pid));
  const usage = process.cpuUsage();
  return { load: (usage.user + usage.system) / 1e3, ...Object.fromEntries(watched.map(({ name }, i) => [name, trees[i]!])) };
}

async function deposit(customer: ApiCustomer, accountId: string): Promise<number> {
  const reply = await send(`${baseUrl}/api/accounts/${accountId}/deposits`, {
    method: 'POST',
    headers: { authorization: `Bearer ${customer.token}`, 'content-type': 'application/json', 'idempotency-key': randomUUID() },
    body: JSON.stringify({ amountMinor: 100 }),
  });
  return reply.status;
}

async function stepUp(customer: ApiCustomer): Promise<number> {
  const reply = await send(`${baseUrl}/api/step-up`, {
    method: 'POST',
    headers: { authorization: `Bearer ${customer.token}`, 'content-type': 'application/json' },
    body: JSON.stringify({ pin: customer.pin, payment: { operation: 'withdraw', fromAccountId: customer.accountId, amountMinor: 100 } }),
  });
  return reply.status;
}

async function listAccounts(customer: ApiCustomer): Promise<number> {
  return (await send(`${baseUrl}/api/accounts`, { headers: { authorization: `Bearer ${customer.token}` } })).status;
}

/**
 * With WAITS_URL (run.sh sets it), what PostgreSQL's client backends were doing, sampled
 * every 5 ms from pg_stat_activity: where a contended case spends its time (a row lock,
 * the client, the CPU).
 */
function sampleWaits(): () => Promise<string> {
  if (!process.env.WAITS_URL) return async () => '';
  const pool = new pg.Pool({ connectionString: process.env.WAITS_URL, max: 1 });
  const tally = new Map<string, number>();
  let samples = 0;
  let stop = false;
  const sampling = (async () => {
    while (!stop) {
      const { rows } = await pool.query<{ what: string; n: number }>(`
        SELECT state || coalesce(' ' || wait_event_type || ':' || wait_event, ' cpu') AS what, count(*)::int AS n
        FROM pg_stat_activity WHERE backend_type = 'client backend' AND pid <> pg_backend_pid() AND state <> 'idle' GROUP BY 1`);
      samples += 1;
      for (const { what, n } of rows) tally.set(what, (tally.get(what) ?? 0) + n);
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
  })();
  return async () => {
    stop = true;
    await sampling;
    await pool.end();
    const top = [...tally].sort((a, b) => b[1] - a[1]).slice(0, 8);
    return `\n  backends (mean over ${samples} samples): ${top.map(([what, n]) => `${what} ${(n / samples).toFixed(1)}`).join(', ')}`;
  };
}

async function drive(name: string, op: (client: number) => Promise<number>): Promise<void> {
  const ms: number[] = [];
  const waits = sampleWaits();
  const bad = new Map<number, number>();
  const before = cpuMs();
  const end = Date.now() + seconds * 1000;
  await Promise.all(
    Array.from({ length: clients }, async (_, c) => {
      while (Date.now() < end) {
        const t = performance.now();
        const status = await op(c);
        ms.push(performance.now() - t);
        if (status >= 300) bad.set(status, (bad.get(status) ?? 0) + 1);
      }
    }),
  );
  const after = cpuMs();
  const waited = await waits();
  const cpu = watched.length ? `  CPU per op: ${Object.keys(after).map((k) => `${k} ${((after[k]! - before[k]!) / ms.length).toFixed(2)} ms`).join(', ')}` : '';
  ms.sort((a, b) => a - b);
  const p = (q: number) => ms[Math.min(ms.length - 1, Math.floor(q * ms.length))]!.toFixed(1);
  console.log(`${name.padEnd(14)} ${(ms.length / seconds).toFixed(0).padStart(6)}/s  p50 ${p(0.5)} ms  p99 ${p(0.99)} ms  n=${ms.length}${bad.size ? `  non-2xx ${JSON.stringify([...bad])}` : ''}${cpu}${waited}`);
}

/** `count` bursts of `size` deposits sent at once into a fresh account: wall time and p50/p99 of each. */
async function bursts(customer: ApiCustomer, size: number, count: number): Promise<void> {
  for (let b = 0; b < count; b++) {
    const account = await openAccount(customer, `burst ${b}`);
    const waits = sampleWaits();
    const before = cpuMs();
    const started = performance.now();
    const ms = await Promise.all(Array.from({ length: size }, async () => {
      const t = performance.now();
      const status = await deposit(customer, account);
      if (status !== 201) throw new Error(`a burst's deposit answered ${status}`);
      return performance.now() - t;
    }));
    const wall = performance.now() - started;
    const after = cpuMs();
    ms.sort((x, y) => x - y);
    const p = (q: number) => ms[Math.min(ms.length - 1, Math.ceil(q * ms.length) - 1)]!.toFixed(0);
    const cpu = watched.length ? `  CPU per op: ${Object.keys(after).map((k) => `${k} ${((after[k]! - before[k]!) / size).toFixed(2)} ms`).join(', ')}` : '';
    console.log(`burst ${size} #${b + 1}   wall ${wall.toFixed(0)} ms  p50 ${p(0.5)} ms  p99 ${p(0.99)} ms${cpu}${await waits()}`);
  }
}

const want = (s: string) => only.length === 0 || only.includes(s);
const owners: ApiCustomer[] = [];
// One at a time: sign-ins share a small concurrency limit (signInLimits.ts).
for (let i = 0; i < 20; i++) owners.push(await signUp(baseUrl, `load${i}`));
const one = await openAccount(owners[0]!, 'hot');
const spread: { owner: ApiCustomer; id: string }[] = [];
for (const owner of owners) for (const ids of await Promise.all(Array.from({ length: 10 }, (_, i) => openAccount(owner, `a${i}`)))) spread.push({ owner, id: ids });
let next = 0;
if (want('warm')) await drive('warm-up', () => deposit(owners[0]!, one));
if (want('one')) await drive('deposit 1 acct', () => deposit(owners[0]!, one));
if (want('spread')) await drive('deposit 200', () => {
  const target = spread[next++ % spread.length]!;
  return deposit(target.owner, target.id);
});
if (want('burst')) await bursts(owners[0]!, Number(process.env.BURST_SIZE ?? 500), Number(process.env.BURST_COUNT ?? 3));
if (want('list')) await drive('GET accounts', (c) => listAccounts(owners[c % owners.length]!));
if (want('stepup')) await drive('step-up', (c) => stepUp(owners[c % owners.length]!));
process.exit(0);
