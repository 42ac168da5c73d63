/**
 * A customer who has just signed up or signed in reads their own profile and accounts
 * although the read replica lags (adr/0007's read-your-writes): registration and the token
 * it issues are the customer's own writes, so their next reads go to the primary. Found by
 * the metrics suite under CI load: `/api/me` through the BFF answered 401 "the signed-in user
 * no longer exists" because the replica had not replayed the registration yet.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startApi, type ApiProcess } from '@tidewater/test-support/apiProcess';
import { call } from '@tidewater/test-support/httpClient';
import { startPrimary, startReplica, type PgCluster } from '@tidewater/test-support/pgCluster';
import { queryOnce, waitFor } from '@tidewater/test-support/pgProcesses';
import { uniqueHandle } from '@tidewater/test-support/handles';

describe('signing up while the replica lags', () => {
  let primary: PgCluster;
  let replica: PgCluster;
  let api: ApiProcess;
  beforeAll(async () => {
    primary = await startPrimary();
    replica = await startReplica(primary);
    api = await startApi({ DATABASE_URL: primary.urlFor('tidewater'), DATABASE_REPLICA_URL: replica.urlFor('tidewater'), READ_YOUR_WRITES_MS: '30000' });
  }, 180_000);
  afterAll(async () => {
    await api?.stop();
    await replica?.destroy();
    await primary?.destroy();
  });

  it('answers the new customer their profile and accounts from the primary, not 401 from the replica', async () => {
    // The replica first replays what the API's start wrote (its migrations): paused before
    // that, it has no `users` table, and the proof below fails on the table, not the lag.
    const lsn = (await queryOnce<{ lsn: string }>(primary.urlFor('tidewater'), 'SELECT pg_current_wal_lsn()::text AS lsn'))[0]!.lsn;
    await waitFor(`the replica to replay up to ${lsn}`, async () => {
      const [row] = await queryOnce<{ done: boolean }>(replica.urlFor('tidewater'), `SELECT pg_last_wal_replay_lsn() >= '${lsn}'::pg_lsn AS done`);
      return row?.done === true;
    });
    await queryOnce(replica.urlFor('tidewater'), 'SELECT pg_wal_replay_pause()'); // the replica lags from here on
    try {
      const handle = uniqueHandle('lag');
      const visitor = { email: `${handle}@example.com`, password: 'correct horse battery', displayName: 'Lag', handle, pin: '2468' };
      const registered = await call(api.url, 'POST', '/api/auth/register', { body: visitor });
      expect(registered.status).toBe(201);
      const token = await call(api.url, 'POST', '/api/auth/token', { body: { email: visitor.email, password: visitor.password } });
      expect(token.status).toBe(200);
      const me = await call(api.url, 'GET', '/api/me', { token: token.body.accessToken });
      expect(me.status, JSON.stringify(me.body)).toBe(200);
      expect(me.body.id).toBe(registered.body.user.id);
      const accounts = await call(api.url, 'GET', '/api/accounts', { token: token.body.accessToken });
      expect(accounts.status).toBe(200);
      expect(JSON.stringify(accounts.body)).toContain(registered.body.account.id);
      // Proof that the replica lags: it has not seen the customer.
      expect(await queryOnce(replica.urlFor('tidewater'), `SELECT 1 FROM users WHERE id = '${String(registered.body.user.id)}'`)).toEqual([]);
    } finally {
      await queryOnce(replica.urlFor('tidewater'), 'SELECT pg_wal_replay_resume()');
    }
  }, 120_000);
});
