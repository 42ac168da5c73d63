/**
 * The session store on a URL with several hosts (adr/0019): with the standby named first,
 * sessions still live on the primary; after a failover (primary stopped, standby promoted)
 * the same store saves and reads sessions on the promoted server, no restart.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pino } from 'pino';
import { startPrimary, startReplica, type PgCluster } from '@tidewater/test-support/pgCluster';
import { queryOnce, waitFor } from '@tidewater/test-support/pgProcesses';
import type { SessionData } from 'express-session';
import { loadConfig } from '../config.ts';
import { openSessionStore, type SessionStore } from './sessionStore.ts';

describe('the session store on a host list', () => {
  let primary: PgCluster;
  let replica: PgCluster;
  let store: SessionStore;

  beforeAll(async () => {
    primary = await startPrimary();
    replica = await startReplica(primary);
    const url = `postgres://postgres@127.0.0.1:${replica.port},127.0.0.1:${primary.port}/postgres?target_session_attrs=read-write`;
    const config = loadConfig({ BFF_SESSION_DATABASE_URL: url, SESSION_SECRET: 'x'.repeat(40), BFF_TOKEN_KEY: Buffer.alloc(32, 7).toString('base64') });
    store = await openSessionStore(config, pino({ level: 'silent' }));
  }, 120_000);
  afterAll(async () => {
    await store?.close();
    await replica?.destroy();
    await primary?.destroy();
  });

  const save = (sid: string) =>
    new Promise<void>((resolve, reject) =>
      store.store.set(sid, { cookie: { originalMaxAge: 60_000, expires: new Date(Date.now() + 60_000) } } as SessionData, (error?: unknown) => (error ? reject(error) : resolve())),
    );
  const savedOn = async (cluster: PgCluster, sid: string) =>
    (await queryOnce<{ n: number }>(cluster.url, `SELECT count(*)::int AS n FROM bff_session WHERE sid = '${sid}'`))[0]!.n;

  it('keeps sessions on the primary whatever the order, and follows a promoted standby', async () => {
    await save('before-failover');
    expect(await savedOn(primary, 'before-failover')).toBe(1);
    await primary.stop();
    await replica.promote();
    // The first save after the failover may meet the dead connection; the next ones land.
    await waitFor('a session save on the promoted standby', () => save('after-failover').then(() => true), 10_000, 100);
    expect(await savedOn(replica, 'after-failover')).toBe(1);
    expect(await savedOn(replica, 'before-failover')).toBe(1);
  }, 60_000);
});
