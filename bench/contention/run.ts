/**
 * The contention benchmark alone (`npm run bench:contention -w bench`): a throwaway
 * PostgreSQL and the real API on loopback, then the scenarios of scenarios.ts at
 * BENCH_SIZES (default 24,100,500), printed as one table. `npm run bench` runs the same
 * scenarios among the others (../run.ts).
 */
import { startApi } from '@tidewater/test-support/apiProcess';
import { startPrimary } from '@tidewater/test-support/pgCluster';
import { benchSignUps } from './apiPath.ts';
import { print, runContention, type Row } from './scenarios.ts';

const sizes = (process.env.BENCH_SIZES ?? '24,100,500').split(',').map(Number).filter((n) => n > 0);

async function main(): Promise<void> {
  const cluster = await startPrimary();
  const databaseUrl = cluster.urlFor('tidewater');
  const api = await startApi({ DATABASE_URL: databaseUrl, LOG_LEVEL: 'warn', ...benchSignUps });
  let rows: Row[] = [];
  try {
    rows = await runContention(api.url, databaseUrl, sizes);
  } finally {
    print(rows);
    await api.stop();
    await cluster.destroy();
  }
}

main().then(
  () => process.exit(0),
  (error: unknown) => {
    console.error('bench:contention failed:', error);
    process.exit(1);
  },
);
