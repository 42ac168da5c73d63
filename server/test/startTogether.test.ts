/**
 * Several API processes started together on a fresh database (replicas of a deployment)
 * all start: the second and third wait for the first's migrations instead of failing with
 * "Another migration is already running".
 */
import { afterAll, describe, expect, it } from 'vitest';
import { startApi, type ApiProcess } from '@tidewater/test-support/apiProcess';
import { startPrimary, type PgCluster } from '@tidewater/test-support/pgCluster';

describe('API processes started together', () => {
  let cluster: PgCluster;
  const apis: ApiProcess[] = [];
  afterAll(async () => {
    await Promise.all(apis.map((api) => api.stop()));
    await cluster?.destroy();
  });

  it('all start on one fresh database', async () => {
    cluster = await startPrimary();
    const started = await Promise.allSettled(Array.from({ length: 4 }, () => startApi({ DATABASE_URL: cluster.urlFor('tidewater') })));
    for (const outcome of started) if (outcome.status === 'fulfilled') apis.push(outcome.value);
    expect(started.map((outcome) => (outcome.status === 'fulfilled' ? 'started' : String(outcome.reason).slice(0, 200)))).toEqual(['started', 'started', 'started', 'started']);
  }, 120_000);
});
