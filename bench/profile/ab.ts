/**
 * The load of bench/profile/ab.sh: two APIs, A and B, loaded in alternating turns
 * (A B B A per round). MODE=burst: BURST_SIZE (500) deposits at once into a fresh account,
 * each turn; prints the medians of p99, wall time and the API's CPU per deposit.
 * MODE=one: 24 clients depositing into one account for TURN_MS (3 s), each turn; prints the median
 * throughput. MODE=spread: the same, each client on an account of its own (no lock is
 * shared: the API's CPU is the limit). MODE=random: each deposit into a random one of 200
 * accounts, as the bench's overhead scenario sends them. MODE=list: 24 clients reading
 * `GET /api/accounts` of a customer with two accounts, as the overhead scenario's GET does.
 * ROUNDS (4) rounds, after a 6 s warm-up of each.
 */
import { randomUUID } from 'node:crypto';
import { openAccount, signUp, type ApiCustomer } from '../contention/apiPath.ts';
import { send } from '../lib/http.ts';
import { cpuMsOfTrees } from '../lib/processCpu.ts';

const [urlA, pidA, urlB, pidB] = process.argv.slice(2);
const modes = ['burst', 'one', 'spread', 'random', 'list'] as const;
type Mode = (typeof modes)[number];
const mode = (process.env.MODE ?? 'burst') as Mode;
if (!modes.includes(mode)) {
  console.error(`ab: MODE must be one of ${modes.join(', ')}; got "${mode}"`);
  process.exit(2);
}
const burstSize = Number(process.env.BURST_SIZE ?? 500);
const rounds = Number(process.env.ROUNDS ?? 4);
const turnMs = Number(process.env.TURN_MS ?? 3_000);

interface Side {
  name: 'A' | 'B';
  url: string;
  pid: number;
  customer: ApiCustomer;
  samples: { p99: number[]; wallMs: number[]; cpuMs: number[]; throughput: number[] };
  /** Every call of the turns and the warm-up (not the bursts): what its whole-life profile (PROFILE_DIR) divides by. */
  calls: number;
}

async function deposit(side: Side, accountId: string): Promise<void> {
  const reply = await send(`${side.url}/api/accounts/${accountId}/deposits`, {
    method: 'POST',
    headers: { authorization: `Bearer ${side.customer.token}`, 'content-type': 'application/json', 'idempotency-key': randomUUID() },
    body: JSON.stringify({ amountMinor: 100 }),
  });
  if (reply.status !== 201) throw new Error(`${side.name}: a deposit answered ${reply.status}: ${reply.text}`);
}

async function list(side: Side): Promise<void> {
  const reply = await send(`${side.url}/api/accounts`, { headers: { authorization: `Bearer ${side.customer.token}` } });
  if (reply.status !== 200) throw new Error(`${side.name}: a GET answered ${reply.status}: ${reply.text}`);
}

/** One client's next call: the list, or a deposit on client i's account (a random one with MODE=random). */
function nextCall(side: Side, accountIds: string[], i: number): Promise<void> {
  if (mode === 'list') return list(side);
  return deposit(side, mode === 'random' ? accountIds[Math.floor(Math.random() * accountIds.length)]! : accountIds[i % accountIds.length]!);
}

/** 24 clients for `ms`, each making `nextCall` after the last; calls per second. */
async function clients(side: Side, accountIds: string[], ms: number): Promise<number> {
  let done = 0;
  const cpuBefore = cpuMsOfTrees([side.pid])[0]!;
  const end = Date.now() + ms;
  await Promise.all(Array.from({ length: 24 }, async (_, i) => {
    while (Date.now() < end) {
      await nextCall(side, accountIds, i);
      done += 1;
    }
  }));
  side.calls += done;
  side.samples.cpuMs.push((cpuMsOfTrees([side.pid])[0]! - cpuBefore) / done);
  return done / (ms / 1000);
}

async function burst(side: Side): Promise<void> {
  const accountId = await openAccount(side.customer, 'burst');
  const cpuBefore = cpuMsOfTrees([side.pid])[0]!;
  const started = performance.now();
  const ms = await Promise.all(Array.from({ length: burstSize }, async () => {
    const t = performance.now();
    await deposit(side, accountId);
    return performance.now() - t;
  }));
  side.samples.wallMs.push(performance.now() - started);
  side.samples.cpuMs.push((cpuMsOfTrees([side.pid])[0]! - cpuBefore) / burstSize);
  ms.sort((a, b) => a - b);
  side.samples.p99.push(ms[Math.ceil(0.99 * ms.length) - 1]!);
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
const sides: Side[] = [];
for (const [name, url, pid] of [['A', urlA, pidA], ['B', urlB, pidB]] as const) {
  const customer = await signUp(url!, `ab${name.toLowerCase()}`);
  sides.push({ name, url: url!, pid: Number(pid), customer, samples: { p99: [], wallMs: [], cpuMs: [], throughput: [] }, calls: 0 });
}
const targets = new Map<Side, string[]>();
for (const side of sides) {
  const count = mode === 'spread' ? 24 : mode === 'random' ? 200 : 1; // list: the customer's first account and this one
  const ids: string[] = [];
  for (let i = 0; i < count; i++) ids.push(await openAccount(side.customer, `load ${i}`));
  targets.set(side, ids);
  await clients(side, ids, 6_000); // warm-up
  side.samples.cpuMs.length = 0;
}
for (let round = 0; round < rounds; round++) {
  for (const side of [sides[0]!, sides[1]!, sides[1]!, sides[0]!]) {
    if (mode !== 'burst') side.samples.throughput.push(await clients(side, targets.get(side)!, turnMs));
    else await burst(side);
  }
}
for (const { name, samples, calls } of sides) {
  if (mode !== 'burst') console.log(`${name}: ${{ one: 'one account', spread: 'an account each', random: 'a random one of 200 accounts each time', list: 'GET /api/accounts of two accounts' }[mode]}, 24 clients: median ${median(samples.throughput).toFixed(0)}/s [${samples.throughput.map((x) => x.toFixed(0)).join(' ')}], API CPU median ${median(samples.cpuMs).toFixed(3)} ms/call [${samples.cpuMs.map((x) => x.toFixed(2)).join(' ')}], ${calls} calls in all`);
  else console.log(`${name}: bursts of ${burstSize}: p99 median ${median(samples.p99).toFixed(0)} ms [${samples.p99.map((x) => x.toFixed(0)).join(' ')}], wall ${median(samples.wallMs).toFixed(0)} ms, API CPU ${median(samples.cpuMs).toFixed(2)} ms/deposit`);
}
process.exit(0);
