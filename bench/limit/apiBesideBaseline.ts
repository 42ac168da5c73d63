/**
 * What the limit baselines' tests compare on: one throwaway cluster, the API on it, a bare
 * `pg` pool of the API's size (as the bench's baselines have) and one signed-up customer.
 * Call it inside a `describe`: its hooks start them before the tests and end them after.
 */
import pg from 'pg';
import { afterAll, beforeAll } from 'vitest';
import { startApi, type ApiProcess } from '@tidewater/test-support/apiProcess';
import { bank, type Customer } from '@tidewater/test-support/bank';
import { endedQuietly } from '@tidewater/test-support/endedQuietly';
import { startPrimary, type PgCluster } from '@tidewater/test-support/pgCluster';
import { defaults } from '../../server/src/config.ts';

/** The database's URL, the API, the bare pool and the customer, set once `beforeAll` has run. */
export interface ApiBesideBaseline {
  url: string;
  api: ApiProcess;
  pool: pg.Pool;
  ada: Customer;
}

/** Registers the hooks described above; the answer's fields are set before the first test. */
export function apiBesideBaseline(): ApiBesideBaseline {
  const on = {} as ApiBesideBaseline;
  let cluster: PgCluster | undefined;
  beforeAll(async () => {
    cluster = await startPrimary();
    on.url = cluster.urlFor('tidewater');
    on.api = await startApi({ LOG_LEVEL: 'warn', DATABASE_URL: on.url });
    on.pool = endedQuietly(new pg.Pool({ connectionString: on.url, max: defaults.dbPoolMax }));
    on.ada = await bank(on.api.url).signUpPatiently();
  });
  afterAll(async () => {
    await on.pool?.end();
    await on.api?.stop();
    await cluster?.destroy();
  });
  return on;
}
