/**
 * A quick load for profiling the API by hand (issue 15): 24 clients for 8 s doing
 * deposits on one account, on 200 accounts, and GET /api/accounts; prints throughput and
 * p50 per scenario. `npx tsx bench/profile/load.ts http://127.0.0.1:PORT [scenario…]`.
 * Not `npm run bench` (that is bench/'s own command); this is the profiler's helper.
 */
import { randomUUID } from 'node:crypto';
import { openAccount, signUp, type ApiCustomer } from '../contention/apiPath.ts';

const baseUrl = process.argv[2] ?? 'http://127.0.0.1:3000';
const only = process.argv.slice(3);
const clients = Number(process.env.LOAD_CLIENTS ?? 24);
const seconds = Number(process.env.LOAD_SECONDS ?? 8);

async function deposit(customer: ApiCustomer, accountId: string): Promise<number> {
  const r = await fetch(`${baseUrl}/api/accounts/${accountId}/deposits`, {
    method: 'POST',
    headers: { authorization: `Bearer ${customer.token}`, 'content-type': 'application/json', 'idempotency-key': randomUUID() },
    body: JSON.stringify({ amountMinor: 100 }),
  });
  await r.arrayBuffer();
  return r.status;
}

async function listAccounts(customer: ApiCustomer): Promise<number> {
  const r = await fetch(`${baseUrl}/api/accounts`, { headers: { authorization: `Bearer ${customer.token}` } });
  await r.arrayBuffer();
  return r.status;
}

async function drive(name: string, op: (client: number) => Promise<number>): Promise<void> {
  const ms: number[] = [];
  const bad = new Map<number, number>();
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
  ms.sort((a, b) => a - b);
  const p = (q: number) => ms[Math.min(ms.length - 1, Math.floor(q * ms.length))]!.toFixed(1);
  console.log(`${name.padEnd(14)} ${(ms.length / seconds).toFixed(0).padStart(6)}/s  p50 ${p(0.5)} ms  p99 ${p(0.99)} ms  n=${ms.length}${bad.size ? `  non-2xx ${JSON.stringify([...bad])}` : ''}`);
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
if (want('list')) await drive('GET accounts', (c) => listAccounts(owners[c % owners.length]!));
