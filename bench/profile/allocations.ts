/**
 * What the resilience layers cost one request in allocation (issue 15, adr/0034): two
 * in-process APIs on one throwaway PostgreSQL, the layers on and off (BENCH_RESILIENCE), the
 * same customer's deposits (or GETs: OP=get) one at a time through real HTTP. After 300 of
 * each, BLOCK requests per side under V8's sampling heap profiler, keeping the samples of
 * objects already collected: the bytes allocated per request and the allocation sites that
 * differ most between the sides. The HTTP client is in the same process: its share is the
 * same on both sides. (CPU is not measured here: in one process, one request at a time, it
 * moved by half between blocks of the same side.)
 *
 *   OP=deposit BLOCK=400 npx tsx bench/profile/allocations.ts
 */
import { Session } from 'node:inspector/promises';
import { apiDeposit, openAccount, signUp } from '../contention/apiPath.ts';
import { send } from '../lib/http.ts';
import { sides, startSides, type SideName } from './inProcessSides.ts';

const op = process.env.OP ?? 'deposit';
const block = Number(process.env.BLOCK ?? 400);
const { urls, close } = await startSides('allocations-bench');
const customer = await signUp(urls.on, 'allocations');
const accountIds = await Promise.all(Array.from({ length: 20 }, (_, i) => openAccount(customer, `counted ${i}`)));
let next = 0;
const operation = op === 'get'
  ? (url: string) => send(`${url}/api/accounts`, { headers: { authorization: `Bearer ${customer.token}` } })
  : (url: string) => apiDeposit({ ...customer, baseUrl: url }, accountIds[next++ % accountIds.length]!, 1);

async function run(side: SideName, n: number): Promise<void> {
  for (let i = 0; i < n; i++) await operation(urls[side]);
}

/** Sites are shown relative to the repository (or to node_modules). */
const repositoryRoot = new URL('../../', import.meta.url).href;

interface SamplingNode { callFrame: { functionName: string; url: string; lineNumber: number }; selfSize: number; children: SamplingNode[] }
async function sampled(side: SideName, n: number): Promise<{ bytes: number; sites: Map<string, number> }> {
  const session = new Session();
  session.connect();
  await session.post('HeapProfiler.startSampling', { samplingInterval: 256, includeObjectsCollectedByMajorGC: true, includeObjectsCollectedByMinorGC: true });
  await run(side, n);
  const { profile } = (await session.post('HeapProfiler.stopSampling')) as unknown as { profile: { head: SamplingNode } };
  session.disconnect();
  const sites = new Map<string, number>();
  let bytes = 0;
  const walk = (node: SamplingNode) => {
    bytes += node.selfSize;
    if (node.selfSize) {
      const where = `${node.callFrame.functionName || '(anonymous)'} ${node.callFrame.url.replace(/.*node_modules\//, '').replace(repositoryRoot, '')}:${node.callFrame.lineNumber + 1}`;
      sites.set(where, (sites.get(where) ?? 0) + node.selfSize);
    }
    node.children.forEach(walk);
  };
  walk(profile.head);
  return { bytes, sites };
}

try {
  for (const side of sides) await run(side, 300);
  const allocated = { on: await sampled('on', block), off: await sampled('off', block) };
  for (const side of sides) console.log(`${side}: ${(allocated[side].bytes / block / 1024).toFixed(1)} KiB allocated per ${op}`);
  const keys = new Set([...allocated.on.sites.keys(), ...allocated.off.sites.keys()]);
  const differences = [...keys].map((key) => ({ key, on: (allocated.on.sites.get(key) ?? 0) / block, off: (allocated.off.sites.get(key) ?? 0) / block }));
  differences.sort((a, b) => Math.abs(b.on - b.off) - Math.abs(a.on - a.off));
  console.log('allocation sites that differ most (bytes per request, on / off):');
  for (const { key, on, off } of differences.slice(0, 30)) console.log(`  ${on.toFixed(0).padStart(7)} ${off.toFixed(0).padStart(7)}  ${key}`);
} finally {
  await close();
}
