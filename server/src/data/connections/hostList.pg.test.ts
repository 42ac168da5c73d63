/**
 * Several hosts in one URL against a real primary and a real streaming replica (adr/0019,
 * contract/src/hostList.ts): the primary's pools land on the primary whatever the order,
 * reads with prefer-standby land on the standby, and after a failover (the primary
 * stopped, the standby promoted) the same pools follow the promoted server, no restart.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig, type ServerConfig } from '../../config.ts';
import { startPrimary, startReplica, type PgCluster } from '@tidewater/test-support/pgCluster';
import { inRequest, memoryLogger } from '../../../test/support/inRequest.ts';
import { createDataLayer } from '../createDataLayer.ts';
import { openDatabase, type Database } from './index.ts';

const hostOf = (cluster: PgCluster) => `127.0.0.1:${cluster.port}`;
const listUrl = (clusters: PgCluster[], query: string) => `postgres://postgres@${clusters.map(hostOf).join(',')}/tidewater?${query}`;

describe('a URL with several hosts, on a primary and a streaming replica', () => {
  let primary: PgCluster;
  let replica: PgCluster;
  let config: ServerConfig;
  const log = memoryLogger();
  const opened: Database[] = [];

  async function open(databaseUrl: string, databaseReplicaUrl?: string): Promise<Database> {
    const db = await openDatabase({ ...config, databaseUrl, databaseReplicaUrl }, { logger: log.logger });
    opened.push(db);
    return db;
  }
  const portOf = async (client: Database['prisma']) =>
    Number((await client.$queryRaw<Array<{ port: number }>>`SELECT inet_server_port() AS port`)[0]!.port);

  beforeAll(async () => {
    primary = await startPrimary();
    config = loadConfig({ DB_RETRY_BASE_DELAY_MS: '20', DB_RETRY_MAX_DELAY_MS: '200', DB_POOL_WAIT_MS: '1000', DB_CONNECT_TIMEOUT_MS: '1000', DB_COMMIT_TIMEOUT_MS: '1000', DB_READINESS_PROBE_MS: '200' });
    const migrated = await open(primary.urlFor('tidewater'));
    await migrated.migrate();
    replica = await startReplica(primary);
  }, 180_000);

  afterAll(async () => {
    for (const db of opened) await db.close().catch(() => {});
    await replica?.destroy();
    await primary?.destroy();
  });

  it('lands the primary pools on the primary whatever the order of the hosts, and reads on the standby', async () => {
    for (const order of [[primary, replica], [replica, primary]]) {
      const db = await open(listUrl(order, 'target_session_attrs=read-write'), listUrl(order, 'target_session_attrs=prefer-standby&load_balance_hosts=random'));
      expect(await portOf(db.prisma)).toBe(primary.port);
      expect(await portOf(db.primaryReadOnlyPrisma)).toBe(primary.port);
      expect(await portOf(db.readOnlyPrisma)).toBe(replica.port);
      // The migration also goes to the primary, whichever host comes first.
      expect(await db.migrate()).toEqual([]);
    }
  });

  it('refuses at start a target_session_attrs libpq would refuse', async () => {
    await expect(open(listUrl([primary, replica], 'target_session_attrs=master'))).rejects.toThrow(/target_session_attrs/);
  });

  it('follows a promoted standby without a restart: writes wait at the circuit breaker, then land on the new primary', async () => {
    const db = await open(listUrl([primary, replica], 'target_session_attrs=read-write'), listUrl([primary, replica], 'target_session_attrs=prefer-standby'));
    const data = createDataLayer({ database: db, config, logger: log.logger });
    const write = (deadlineMs: number) =>
      inRequest(
        () =>
          data.runInTransaction(async (tx) => {
            const id = randomUUID();
            await tx.$executeRaw`INSERT INTO read_your_writes_marks (user_id, primary_until) VALUES (${id}::uuid, now())`;
            return Number((await tx.$queryRaw<Array<{ port: number }>>`SELECT inet_server_port() AS port`)[0]!.port);
          }),
        { deadlineMs },
      );
    expect(await write(5_000)).toBe(primary.port);
    await primary.stop();
    const inFlight = write(20_000); // meets the stopped primary: waits at the circuit breaker
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    const promotedAt = Date.now();
    await replica.promote();
    expect(await inFlight).toBe(replica.port);
    const recoveryMs = Date.now() - promotedAt;
    console.log(`a write landed on the promoted standby ${recoveryMs} ms after pg_ctl promote was called`);
    expect(recoveryMs).toBeLessThan(5_000);
    expect(await write(5_000)).toBe(replica.port);
    expect(await portOf(db.readOnlyPrisma)).toBe(replica.port); // prefer-standby: no standby left, so the primary
  }, 60_000);
});
