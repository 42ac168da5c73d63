/**
 * The cancellable client and pool against a real PostgreSQL (adr/0006, adr/0019,
 * adr/0026): a fired signal cancels its own request's statement at the database and never
 * another request's that reuses the connection, nor one whose connection already ended.
 * (Its COMMIT gate: commitInClient.pg.test.ts; the 25006 mark: gatedPool.pg.test.ts.)
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startPrimary, type PgCluster } from '@tidewater/test-support/pgCluster';
import { startTcpProxy } from '@tidewater/test-support/tcpProxy';
import { inRequest } from '../../../test/support/inRequest.ts';
import { endedQuietly } from '@tidewater/test-support/endedQuietly';
import { runWithContext } from '../../request/requestContext.ts';
import { CancellableClient, CancellablePool } from './index.ts';

describe('the cancellable client on PostgreSQL', () => {
  let cluster: PgCluster;
  let pool: CancellablePool;

  beforeAll(async () => {
    cluster = await startPrimary();
    pool = endedQuietly(new CancellablePool({ connectionString: cluster.urlFor('tidewater'), Client: CancellableClient, max: 1 }));
  });
  afterAll(async () => {
    await pool?.end();
    await cluster?.destroy();
  });

  /** The pool's own query (typed `never` by the override that passes every form through). */
  const poolQuery = (text: string) => pool.query({ text }) as unknown as Promise<unknown>;

  it("cancels its request's statement at the database when the signal fires", async () => {
    const startedAt = performance.now();
    const outcome = await inRequest(() => poolQuery('SELECT pg_sleep(5)').then(() => 'finished', (error: { code?: string }) => error.code), { deadlineMs: 200 });
    expect(outcome).toBe('57014'); // query_canceled: the server stopped it
    expect(performance.now() - startedAt).toBeLessThan(3_000);
  });

  it("cancels a statement sent from a copy of the request's context that shares its signal (a side write without a budget of its own)", async () => {
    const outcome = await inRequest(
      async (context) => {
        await poolQuery('SELECT 1'); // the request's own statement first: its abort listener is the request's
        return runWithContext({ ...context }, () => poolQuery('SELECT pg_sleep(5)')).then(() => 'finished', (error: { code?: string }) => error.code);
      },
      { deadlineMs: 200 },
    );
    expect(outcome).toBe('57014');
  });

  it("never cancels another request's statement on a connection the first one used and gave back", async () => {
    let gaveBack: () => void = () => undefined;
    const connectionFree = new Promise<void>((resolve) => (gaveBack = resolve));
    let fire: () => void = () => undefined;
    const fireNow = new Promise<void>((resolve) => (fire = resolve));
    // Request A runs a statement on the pool's one connection and gives it back; its deadline fires later.
    const first = inRequest(async (context) => {
      await poolQuery('SELECT 1');
      gaveBack();
      await fireNow;
      context.deadline.arm(1);
      await sleep(50);
      return context.signal.aborted;
    });
    // Request B takes the same connection afterwards, for a statement that is running when A's deadline fires.
    const second = inRequest(async () => {
      await connectionFree;
      const sleeping = poolQuery('SELECT pg_sleep(0.6) AS slept');
      await sleep(150);
      fire();
      return sleeping.then(() => 'finished', (error: { code?: string }) => error.code);
    });
    expect(await first).toBe(true);
    expect(await second).toBe('finished');
  });

  it('sends no CancelRequest for a statement that ended with its connection (no login into an outage)', async () => {
    const proxy = await startTcpProxy({ host: '127.0.0.1', port: cluster.port });
    const viaProxy = new CancellablePool({ connectionString: proxy.urlFor(cluster.urlFor('tidewater')), Client: CancellableClient, max: 1 });
    viaProxy.on('error', () => undefined); // the reset is the point
    try {
      const outcome = await inRequest(async (context) => {
        const sleeping = (viaProxy.query({ text: 'SELECT pg_sleep(5)' }) as unknown as Promise<unknown>).then(() => 'finished', () => 'failed');
        await sleep(300);
        proxy.resetAll();
        const ended = await sleeping;
        const before = proxy.stats().accepted;
        context.deadline.arm(1); // the request's deadline fires after its statement failed with the connection
        await sleep(300);
        return { ended, cancelConnections: proxy.stats().accepted - before };
      });
      expect(outcome).toEqual({ ended: 'failed', cancelConnections: 0 });
    } finally {
      await viaProxy.end();
      await proxy.close();
    }
  });
});
