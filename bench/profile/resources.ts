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
import type { AddressInfo } from 'node:net';
import { pino } from 'pino';
import { startPrimary } from '@tidewater/test-support/pgCluster';
import { createApp } from '../../server/src/app.ts';
import { loadConfig } from '../../server/src/config.ts';
import { openBankDatabase } from '../../server/src/data/connections/openBankDatabase.ts';
import { apiDeposit, openAccount, signUp } from '../contention/apiPath.ts';
import { send } from '../lib/http.ts';

const cluster = await startPrimary();
const logger = pino({ level: 'warn' });
const sides = ['on', 'off'] as const;
const urls = {} as Record<(typeof sides)[number], string>;
const closers: Array<() => Promise<unknown>> = [];
for (const side of sides) {
  const config = { ...loadConfig({ BENCH_RESILIENCE: side, LOG_LEVEL: 'warn' }), databaseUrl: cluster.urlFor('tidewater') };
  const { database } = await openBankDatabase(config, logger);
  const server = createApp({ config, database, logger, signingSecret: 'resources-bench' }).listen(0, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
  urls[side] = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  closers.push(() => new Promise((resolve) => server.close(resolve)), () => database.close());
}
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
  for (const close of closers) await close();
  await cluster.destroy();
}
