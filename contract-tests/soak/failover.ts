/**
 * The failover drill (`npm run soak -- --failover [--sync|--async]`, adr/0019): a primary
 * and a streaming replica, the real API given both hosts in its URLs, money flowing from
 * the soak's polite clients; then the worst moment for a failover: the standby is cut
 * off from the primary (its replication stream runs through a TCP proxy, which swallows
 * everything for a moment while the clients keep sending), the primary crashes
 * (immediate shutdown), and the standby is promoted (`pg_ctl promote`). The API follows without a restart. Measured: seconds from
 * the promotion to the first 2xx write. Checked against the promoted server: every
 * invariant of the soak.
 *
 * - `--sync` (the default, what we recommend for money): the primary names the standby
 *   in `synchronous_standby_names` with `synchronous_commit = on`, so no COMMIT is
 *   acknowledged before the standby has it: every acknowledged send must be on the
 *   promoted server (RPO 0). While the standby is paused, COMMITs wait; their requests
 *   answer 503 with `applied` unknown, and nothing may claim `applied: false`.
 *   (A standby merely paused is not enough to lose anything on loopback: the kernel's
 *   socket buffers hold the WAL sent meanwhile, and the resumed standby reads it.)
 * - `--async`: streaming replication without a synchronous standby. Acknowledged sends
 *   the standby had not received are gone after the promotion: the drill counts and
 *   lists them (expected: some); the checks that loss breaks by definition ("every 2xx
 *   moved", "a replay answers its first stored answer") are reported, not failed.
 */
import { randomUUID } from 'node:crypto';
import { mkdirSync, writeFileSync } from 'node:fs';
import { startPrimary, startReplica, type PgCluster } from '@tidewater/test-support/pgCluster';
import { queryOnce, waitFor } from '@tidewater/test-support/pgProcesses';
import { startTcpProxy } from '@tidewater/test-support/tcpProxy';
import { uniqueHandle } from '@tidewater/test-support/handles';
import { startScaledApi } from '../support/scaledApi.ts';
import { soakClient, type Recorded, type SoakCustomer } from './clients.ts';
import { checkInvariants, type Check } from './invariants.ts';
import type { FaultWindow } from './nemesis.ts';
import { seeded } from './random.ts';
import { resultsDir, type SoakReport } from './report.ts';
import { API_ENV, DATABASE, DEADLINE_MS, inBatches } from './soak.ts';
import { apiTransport, type Identity } from './transport.ts';

/** The drill's size and mode. */
export interface FailoverOptions {
  clients: number;
  seed: number;
  /** A synchronous standby (true) or asynchronous streaming (false). */
  sync: boolean;
  log?: (line: string) => void;
}

/** What the drill measured besides the checks. */
export interface FailoverMeasures {
  mode: 'sync' | 'async';
  /** From `pg_ctl promote` being called to the first 2xx answer of a money send sent after it. */
  recoverySeconds: number | null;
  /** How long `pg_ctl promote -w` itself took. */
  promoteSeconds: number;
  /** Acknowledged sends (201, or 409 applied: true) that the promoted server does not have. */
  lostAcknowledged: number;
  lostExamples: string[];
}

/** The standby's application_name (test-support/src/baseBackup.ts's primary_conninfo). */
const STANDBY_NAME = 'tidewater_replica';
/** Money flowing before the failover, the standby cut off, and money after the promotion. */
const WARM_MS = 5_000;
const CUT_MS = 1_500;
const AFTER_MS = 10_000;
/** The checks that acknowledged-but-lost sends break by definition: reported, not failed, with asynchronous replication. */
const LOSS_CHECKS = ['every 2xx (and every 409 applied: true) moved', 'a replay of an answered key answers its first stored answer (a 201, or a 404/422 refusal), byte for byte'];

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const hostsUrl = (clusters: PgCluster[], query: string) => `postgres://postgres@${clusters.map((c) => `127.0.0.1:${c.port}`).join(',')}/${DATABASE}?${query}`;

/** Runs one drill; answers the report (its checks) and the measures. */
export async function runFailoverDrill(options: FailoverOptions): Promise<SoakReport & { failover: FailoverMeasures }> {
  const log = options.log ?? ((line: string) => process.stderr.write(`${line}\n`));
  const mode = options.sync ? 'sync' : 'async';
  const random = seeded(options.seed);
  const teardown: Array<() => Promise<unknown>> = [];
  try {
    const primary = await startPrimary({ settings: { synchronous_commit: 'on', max_connections: '200' } });
    teardown.push(() => primary.destroy());
    const replica = await startReplica(primary);
    teardown.push(() => replica.destroy());
    // The standby streams through a proxy, so the drill can cut it off from the primary.
    const replication = await startTcpProxy({ host: '127.0.0.1', port: primary.port });
    teardown.push(() => replication.close());
    await queryOnce(replica.url, `ALTER SYSTEM SET primary_conninfo = 'host=127.0.0.1 port=${replication.port} user=postgres application_name=${STANDBY_NAME}'`);
    await queryOnce(replica.url, 'SELECT pg_reload_conf()');
    await waitFor('the standby to stream through the proxy', async () => replication.stats().accepted > 0 && (await queryOnce<{ n: number }>(primary.url, "SELECT count(*)::int AS n FROM pg_stat_replication WHERE state = 'streaming'"))[0]!.n > 0, 20_000);
    if (options.sync) {
      await queryOnce(primary.url, `ALTER SYSTEM SET synchronous_standby_names = '${STANDBY_NAME}'`);
      await queryOnce(primary.url, 'SELECT pg_reload_conf()');
      await waitFor('the standby to be synchronous', async () => {
        const rows = await queryOnce<{ sync_state: string }>(primary.url, 'SELECT sync_state FROM pg_stat_replication');
        return rows.some((row) => row.sync_state === 'sync');
      }, 20_000);
    }
    const api = await startScaledApi(hostsUrl([primary, replica], 'target_session_attrs=read-write'), {
      ...API_ENV,
      DATABASE_REPLICA_URL: hostsUrl([replica, primary], 'target_session_attrs=prefer-standby'),
    });
    teardown.push(() => api.stop());
    const clientTimeoutMs = DEADLINE_MS + 10_000;

    log(`failover drill (${mode}): signing up ${options.clients} customers`);
    const tag = `${Date.now().toString(36)}${random.int(0, 1295).toString(36)}`;
    const customers: SoakCustomer[] = await inBatches(Array.from({ length: options.clients }, (_, i) => i), 2, async (index) => {
      // Signing up hashes a password: on a busy 2-core machine its deadline may pass. A 503
      // may still have registered the visitor, so the next try is a new visitor.
      let signedUp: (Awaited<ReturnType<typeof apiTransport>> & { who: Identity }) | undefined;
      for (let attempt = 1; !signedUp; attempt++) {
        const who: Identity = { email: `fo${tag}${index}x${attempt}@example.com`, password: 'correct horse battery', displayName: `Failover ${index}`, handle: uniqueHandle('failover'), pin: '2468' };
        signedUp = await apiTransport(api.url, who, clientTimeoutMs).then(
          (done) => ({ ...done, who }),
          (error: unknown) => {
            if (attempt >= 5 || !/answered 503/.test(String(error))) throw error;
            return sleep(1_000).then(() => undefined);
          },
        );
      }
      const { transport, userId, who } = signedUp;
      const accounts = await transport.send('GET', '/api/accounts');
      const everyday = (accounts.body as { items: Array<{ id: string }> }).items[0]!.id;
      const key = randomUUID(); // one opening, however many tries
      let savings = await transport.send('POST', '/api/accounts', { body: { name: 'Savings' }, key });
      for (let tries = 1; tries < 5 && savings.status === 503; tries++) {
        await sleep(1_000);
        savings = await transport.send('POST', '/api/accounts', { body: { name: 'Savings' }, key });
      }
      if (savings.status !== 201) throw new Error(`opening an account answered ${savings.status}`);
      return { index, userId, handle: who.handle, pin: who.pin, accounts: [everyday, (savings.body as { id: string }).id], transport };
    });
    const recorded: Recorded = { requests: [], keys: new Map(), replayMismatches: [] };
    const clients = customers.map((customer) => soakClient(customer, customers.filter((other) => other !== customer), random.fork(), recorded));
    await Promise.all(clients.map((client) => client.open()));

    const startedAt = Date.now();
    let stopping = false;
    let operations = 0;
    const running = clients.map((client) => client.run(() => stopping, () => (operations += 1)));
    const faults: FaultWindow[] = [];
    await sleep(WARM_MS);

    // The standby is cut off while the clients keep sending, then the primary crashes.
    const cutAt = Date.now();
    replication.mode('blackhole');
    await sleep(CUT_MS);
    const crashedAt = Date.now();
    await primary.crash();
    faults.push({ kind: 'replication-cut', startedAt: cutAt, healedAt: Date.now() });
    log(`failover drill (${mode}): standby cut off for ${CUT_MS} ms, primary crashed at ${((crashedAt - startedAt) / 1000).toFixed(1)} s; promoting the standby`);
    await sleep(300); // the standby replays what it received before it takes over
    const promoteStartedAt = Date.now();
    await replica.promote();
    const promotedAt = Date.now();
    faults.push({ kind: 'failover', startedAt: crashedAt, healedAt: promotedAt });
    await sleep(AFTER_MS);
    stopping = true;
    await Promise.all(running);
    const endedAt = Date.now();

    const firstWrite = recorded.requests
      .filter((r) => r.what !== 'stepUp' && r.status >= 200 && r.status < 300 && r.sentAt >= promoteStartedAt)
      .map((r) => r.sentAt + r.ms)
      .sort((a, b) => a - b)[0];
    const recoverySeconds = firstWrite === undefined ? null : (firstWrite - promoteStartedAt) / 1_000;

    for (const giveUpAt = Date.now() + 30_000; Date.now() < giveUpAt; await sleep(200)) {
      if (await fetch(`${api.url}/api/ready`).then((r) => r.status === 200, () => false)) break;
    }
    const alive = api.child.exitCode === null && api.child.signalCode === null;
    const checks = await checkInvariants({
      databaseUrl: replica.urlFor(DATABASE),
      requests: recorded.requests,
      keys: recorded.keys,
      replayMismatches: recorded.replayMismatches,
      faults,
      deadlineMs: DEADLINE_MS,
      alive: { API: alive },
    });
    const lossCheck = checks.find((c) => c.name === LOSS_CHECKS[0])!;
    const lostAcknowledged = lossCheck.violations;
    const lostExamples = lossCheck.examples;
    const recovered: Check = {
      name: `the API wrote on the promoted standby within 5 s of the promotion, no restart (${recoverySeconds ?? 'never'} s)`,
      violations: recoverySeconds !== null && recoverySeconds <= 5 ? 0 : 1,
      examples: recoverySeconds === null ? ['no 2xx write after the promotion'] : [],
    };
    const shownChecks: Check[] = [
      ...checks.map((c) =>
        !options.sync && LOSS_CHECKS.includes(c.name)
          ? { ...c, name: `${c.name} [asynchronous replication: reported, not failed; ${c.violations} found]`, violations: 0 }
          : c,
      ),
      recovered,
    ];
    mkdirSync(resultsDir, { recursive: true });
    writeFileSync(`${resultsDir}failover-${mode}-api.log`, `${api.logLines.join('\n')}\n`);
    const failover: FailoverMeasures = {
      mode,
      recoverySeconds,
      promoteSeconds: (promotedAt - promoteStartedAt) / 1_000,
      lostAcknowledged,
      lostExamples,
    };
    return {
      options: { failover: mode, clients: options.clients, seed: options.seed },
      startedAt,
      endedAt,
      operations,
      requests: recorded.requests,
      faults,
      checks: shownChecks,
      failover,
    };
  } finally {
    for (const undo of teardown.reverse()) await undo().catch(() => undefined);
  }
}
