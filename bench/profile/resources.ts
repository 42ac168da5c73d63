/**
 * The async resources (promises, timers, ticks) the resilience layers add to one request
 * (issue 15, adr/0015's overhead): two in-process APIs on one throwaway PostgreSQL, the
 * layers on and off (BENCH_RESILIENCE), the same customer's `GET /api/accounts` and deposit
 * through real HTTP, 200 of each counted by an async hook after 50 to warm up. CPU time on
 * this machine drifts by more than the layers cost; these counts do not (the HTTP client's
 * own resources are in both columns alike).
 *
 *   npx tsx bench/profile/resources.ts
 */
import { createHook } from 'node:async_hooks';
import { apiDeposit, openAccount, signUp } from '../contention/apiPath.ts';
import { send } from '../lib/http.ts';
import { sides, startSides } from './inProcessSides.ts';

const { urls, close } = await startSides('resources-bench');
const customer = await signUp(urls.on, 'resources');
const accountId = await openAccount(customer, 'counted');
const operations = {
  'GET /api/accounts': (url: string) => send(`${url}/api/accounts`, { headers: { authorization: `Bearer ${customer.token}` } }),
  deposit: (url: string) => apiDeposit({ ...customer, baseUrl: url }, accountId, 1),
};
try {
  for (const [name, operation] of Object.entries(operations)) {
    const line: string[] = [];
    for (const side of sides) {
      for (let i = 0; i < 50; i++) await operation(urls[side]);
      const counts: Record<string, number> = {};
      const hook = createHook({ init: (_id, type) => void (counts[type] = (counts[type] ?? 0) + 1) }).enable();
      for (let i = 0; i < 200; i++) await operation(urls[side]);
      hook.disable();
      const shown = Object.entries(counts).filter(([type]) => ['PROMISE', 'Timeout', 'TickObject', 'Immediate'].includes(type));
      line.push(`${side}: ${shown.map(([type, n]) => `${type} ${(n / 200).toFixed(1)}`).join(', ')}`);
    }
    console.log(`${name.padEnd(18)} ${line.join('  |  ')}`);
  }
} finally {
  await close();
}
