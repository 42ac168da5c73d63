/**
 * Two in-process APIs on one throwaway PostgreSQL, the resilience layers on and off
 * (BENCH_RESILIENCE), for the profile scripts that compare what one request costs on each
 * side (resources.ts, allocations.ts).
 */
import { randomBytes } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import { pino } from 'pino';
import { startPrimary } from '@tidewater/test-support/pgCluster';
import { createApp } from '../../server/src/app.ts';
import { loadConfig } from '../../server/src/config.ts';
import { parsePinPepper } from '../../server/src/pinPepper.ts';
import { openBankDatabase } from '../../server/src/data/connections/openBankDatabase.ts';

export const sides = ['on', 'off'] as const;
export type SideName = (typeof sides)[number];

/** Each side's base URL, and `close()` that stops both APIs and the cluster. */
export async function startSides(signingSecret: string): Promise<{ urls: Record<SideName, string>; close(): Promise<void> }> {
  const cluster = await startPrimary();
  const logger = pino({ level: 'warn' });
  const urls = {} as Record<SideName, string>;
  const closers: Array<() => Promise<unknown>> = [];
  const close = async () => {
    for (const closer of closers) await closer();
    await cluster.destroy();
  };
  try {
    for (const side of sides) {
      const config = { ...loadConfig({ BENCH_RESILIENCE: side, LOG_LEVEL: 'warn' }), databaseUrl: cluster.urlFor('tidewater') };
      const { database } = await openBankDatabase(config, logger);
      closers.push(() => database.close());
      const server = createApp({ config, database, logger, signingSecret, pinPeppers: parsePinPepper(`b1:${randomBytes(24).toString('hex')}`) }).listen(0, '127.0.0.1');
      await new Promise((resolve) => server.once('listening', resolve));
      closers.unshift(() => new Promise((resolve) => server.close(resolve)));
      urls[side] = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    }
  } catch (error) {
    await close();
    throw error;
  }
  return { urls, close };
}
