/**
 * Ad hoc: the load of load.ts, printing the CPU each process group spent per operation
 * (from /proc); LOAD_CLIENT=fetch measures with fetch instead of bench/lib/http.ts: `CPU_PIDS=api:123,pg:456 npx tsx bench/profile/cpuLoad.ts URL [scenario…]`.
 */
import { readFileSync, readdirSync } from 'node:fs';
import { randomUUID } from 'node:crypto';
import { openAccount, signUp, type ApiCustomer } from '../contention/apiPath.ts';
import { send } from '../lib/http.ts';

const baseUrl = process.argv[2]!;
const only = process.argv.slice(3);
const clients = Number(process.env.LOAD_CLIENTS ?? 24);
const seconds = Number(process.env.LOAD_SECONDS ?? 8);
const groups = (process.env.CPU_PIDS ?? '').split(',').filter(Boolean).map((g) => { const [name, pid] = g.split(':'); return { name: name!, pid: Number(pid) }; });

function children(): Map<number, number[]> {
  const map = new Map<number, number[]>();
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      (map.get(ppid) ?? map.set(ppid, []).get(ppid)!).push(Number(entry));
    } catch {}
  }
  return map;
}
function ticks(pid: number): number {
  try { const f = readFileSync(`/proc/${pid}/stat`, 'utf8').slice(readFileSync(`/proc/${pid}/stat`, 'utf8').lastIndexOf(')') + 2).split(' '); return Number(f[11]) + Number(f[12]); } catch { return 0; }
}
function treeTicks(pid: number, kids: Map<number, number[]>): number { return ticks(pid) + (kids.get(pid) ?? []).reduce((s, c) => s + treeTicks(c, kids), 0); }
function sample(): Record<string, number> {
  const kids = children();
  const out: Record<string, number> = { self: process.cpuUsage().user / 1e4 + process.cpuUsage().system / 1e4 };
  for (const g of groups) out[g.name] = treeTicks(g.pid, kids);
  return out;
}

async function deposit(customer: ApiCustomer, accountId: string): Promise<number> {
  if (process.env.LOAD_CLIENT !== 'fetch') {
    const reply = await send(`${baseUrl}/api/accounts/${accountId}/deposits`, {
      method: 'POST',
      headers: { authorization: `Bearer ${customer.token}`, 'content-type': 'application/json', 'idempotency-key': randomUUID() },
      body: JSON.stringify({ amountMinor: 100 }),
    });
    return reply.status;
  }
  const r = await fetch(`${baseUrl}/api/accounts/${accountId}/deposits`, {
    method: 'POST',
    headers: { authorization: `Bearer ${customer.token}`, 'content-type': 'application/json', 'idempotency-key': randomUUID() },
    body: JSON.stringify({ amountMinor: 100 }),
  });
  await r.arrayBuffer();
  return r.status;
}

async function drive(name: string, op: (client: number) => Promise<number>): Promise<void> {
  let n = 0, bad = 0;
  const before = sample();
  const t0 = performance.now();
  const end = Date.now() + seconds * 1000;
  await Promise.all(Array.from({ length: clients }, async (_, c) => { while (Date.now() < end) { const s = await op(c); n++; if (s >= 300) bad++; } }));
  const wall = (performance.now() - t0) / 1000;
  const after = sample();
  const per = Object.keys(after).map((k) => `${k} ${(((after[k]! - before[k]!) * 10) / n).toFixed(2)} ms`).join(', ');
  console.log(`${name.padEnd(14)} ${(n / wall).toFixed(0).padStart(6)}/s bad ${bad}; CPU per op: ${per}`);
}

const want = (s: string) => only.length === 0 || only.includes(s);
const owners: ApiCustomer[] = [];
for (let i = 0; i < 20; i++) owners.push(await signUp(baseUrl, `load${i}`));
const one = await openAccount(owners[0]!, 'hot');
const spread: { owner: ApiCustomer; id: string }[] = [];
for (const owner of owners) for (const id of await Promise.all(Array.from({ length: 10 }, (_, i) => openAccount(owner, `a${i}`)))) spread.push({ owner, id });
let next = 0;
await drive('warm-up', () => deposit(owners[0]!, one));
if (want('one')) await drive('deposit 1 acct', () => deposit(owners[0]!, one));
if (want('spread')) await drive('deposit 200', () => { const t = spread[next++ % spread.length]!; return deposit(t.owner, t.id); });
process.exit(0);
