/**
 * The Patroni drill (`npm run ops:patroni-drill`, adr/0062, docs/operations.md): etcd and
 * two PostgreSQL nodes under Patroni with `synchronous_mode`, from the shipped
 * `ops/patroni/*.yml`; the API on the multi-host URL (README "Failover"); four customers
 * sending deposits throughout three faults, and one more through the BFF, whose session
 * store is on the same multi-host URL:
 *
 * 1. the leader lost at once (its Patroni and its postmaster SIGKILLed): the standby is
 *    promoted once the leader key expires; the lost node is started again and rejoins;
 * 2. a switchover (Patroni's REST API, as `patronictl switchover` does);
 * 3. the synchronous standby stalled (its postmaster and every child SIGSTOPped, the
 *    walreceiver included) for longer than `wal_sender_timeout` + `loop_wait`.
 *
 * With `--haproxy` the API reaches the primary through HAProxy (`ops/haproxy/haproxy.cfg`)
 * on one host instead. Prints, per fault, the write gap: seconds from the fault to the first 201 after it. Then
 * resends every refusal under its key and checks on the last primary: every 201 in the
 * ledger once (0 acknowledged sends lost), no key moved twice, no 500, each gap within the
 * 40 s request deadline, `audit:verify` intact. Exits 1 when a check fails.
 */
import { chmodSync, mkdtempSync, rmSync } from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';
import { apiAnswerBudgetMs, chainDefaults } from '../../contract/src/timeoutChain.ts';
import { randomBytes } from 'node:crypto';
import { startApi, type ApiProcess } from '../../test-support/src/apiProcess.ts';
import { startBff, type BffProcess } from '../../test-support/src/bffProcess.ts';
import { queryOnce } from '../../test-support/src/pgProcesses.ts';
import {
  auditVerify,
  check,
  signUpCustomers,
  signUpThroughBff,
  type Sent,
  type Summary,
  report,
  ledgerRowsByKey,
  ledgerChecks,
} from './drillSupport.ts';
import { startHaproxy, type Haproxy } from './haproxy.ts';
import { startPatroniCluster, type PatroniCluster } from './patroniCluster.ts';

const throughHaproxy = process.argv.includes('--haproxy');

const CLIENTS = 4;
/**
 * A resend met the key's claim still held: the first request's commit was in doubt when the
 * leader died (its 503 said no `applied`), so the key waits for it until stale-after, as the
 * docs promise (adr/0048); "no key moved twice" covers what it does then.
 */
const inDoubt = (s: Sent) => s.status === 409 && s.errorCode === 'IDEMPOTENCY_IN_FLIGHT';
/** The API's request deadline (40 s): no fault may cost a write more. */
const DEADLINE_S = chainDefaults.requestDeadlineMs / 1000;
/** The API's longest answer: the deadline, then a COMMIT that started just before it, its look and its release. */
const ANSWER_BUDGET_MS = apiAnswerBudgetMs(chainDefaults);
/** Longer than the shipped wal_sender_timeout (10 s) + loop_wait (5 s): Patroni must drop the standby while it is still stopped. */
const STALL_MS = 25_000;

async function drill(dir: string): Promise<Summary> {
  const started: {
    cluster?: PatroniCluster;
    haproxy?: Haproxy;
    api?: ApiProcess;
    bff?: BffProcess;
    load?: Promise<unknown>;
  } = {};
  let running = true;
  try {
    const cluster = (started.cluster = await startPatroniCluster(dir));
    const leaderUrl = async (database: string) => {
      const leader = await cluster.leader();
      return `postgres://postgres:${cluster.superuserPassword}@127.0.0.1:${leader.pgPort}/${database}`;
    };
    await queryOnce(await leaderUrl('postgres'), 'CREATE DATABASE tidewater');
    const haproxy = throughHaproxy ? (started.haproxy = await startHaproxy(dir, cluster)) : undefined;
    const databaseUrl = haproxy
      ? `postgres://postgres:${cluster.superuserPassword}@127.0.0.1:${haproxy.primaryPort}/tidewater`
      : cluster.urlFor('tidewater');
    const api = (started.api = await startApi({ DATABASE_URL: databaseUrl, LOG_LEVEL: 'warn' }));
    const bff = (started.bff = await startBff({
      apiUrl: api.url,
      env: {
        LOG_LEVEL: 'warn',
        BFF_SESSION_DATABASE_URL: cluster.urlFor('tidewater'),
        SESSION_SECRET: randomBytes(32).toString('hex'),
        BFF_TOKEN_KEY: randomBytes(32).toString('base64'),
      },
    }));
    const customers = await signUpCustomers(api.url, CLIENTS);
    const throughBff = await signUpThroughBff(bff.url);

    const sent: Sent[] = [];
    const sentThroughBff: Sent[] = [];
    started.load = Promise.all([
      ...customers.map(async (customer) => {
        while (running) sent.push(await customer.deposit(100));
      }),
      (async () => {
        while (running) {
          const answer = await throughBff.deposit(100);
          sentThroughBff.push(answer);
          if (answer.status !== 201) await sleep(200); // the SPA waits before a visitor's next try
        }
      })(),
    ]);
    /**
     * The write gap of a fault that began at `began` and was complete at `done`: the longest
     * time without a 201 answer from `began` until the first 201 of a send sent after `done`
     * (an answer to a send that committed before the fault proves nothing).
     */
    const writeGap = async (began: number, done = began) => {
      const until = performance.now() + 90_000;
      let back: Sent | undefined;
      while (!(back = sent.find((s) => s.sentAt > done && s.status === 201))) {
        if (performance.now() > until) throw new Error('no 201 within 90 s of the fault');
        await sleep(50);
      }
      const answers = [
        began,
        ...sent
          .filter((s) => s.status === 201 && s.at > began && s.at < back.at)
          .map((s) => s.at)
          .sort((a, b) => a - b),
        back.at,
      ];
      return Math.max(...answers.slice(1).map((at, i) => at - answers[i]!)) / 1000;
    };
    const gaps: Record<string, number> = {};
    const say = (line: string) =>
      console.log(`  [${((performance.now() - began) / 1000).toFixed(1)} s] ${line}`);

    await sleep(3_000);
    const lost = await cluster.leader();
    const killedAt = performance.now();
    await lost.kill();
    say(`${lost.name} (the leader) killed`);
    gaps['the leader lost (Patroni and postmaster killed)'] = await writeGap(killedAt);
    say(
      `write gap ${gaps['the leader lost (Patroni and postmaster killed)']!.toFixed(1)} s; ${lost.name} started again`,
    );
    lost.start();
    await cluster.whenSynchronous();
    say('synchronous again');

    await sleep(3_000);
    const from = await cluster.leader();
    const to = cluster.nodes.find((n) => n !== from)!;
    const switchedAt = performance.now();
    const switched = await fetch(`http://127.0.0.1:${from.restPort}/switchover`, {
      method: 'POST',
      body: JSON.stringify({ leader: from.name, candidate: to.name }),
    });
    if (switched.status !== 200)
      throw new Error(`the switchover answered ${switched.status}: ${await switched.text()}`);
    gaps['a switchover'] = await writeGap(switchedAt, performance.now());
    say(`switched over from ${from.name} to ${to.name}; write gap ${gaps['a switchover']!.toFixed(1)} s`);
    await cluster.whenSynchronous();

    await sleep(3_000);
    const standby = cluster.nodes.find((n) => n !== to)!;
    const [waitsFor] = await queryOnce<{ names: string }>(
      await leaderUrl('postgres'),
      "SELECT current_setting('synchronous_standby_names') AS names",
    );
    say(`the primary waits for ${JSON.stringify(waitsFor?.names)}; stopping ${standby.name}`);
    const stalledAt = performance.now();
    await standby.pause();
    const resumed = sleep(STALL_MS).then(() => standby.resume());
    await sleep(1_000);
    const [held] = await queryOnce<{ waiting: number }>(
      await leaderUrl('postgres'),
      "SELECT count(*)::int AS waiting FROM pg_stat_activity WHERE wait_event = 'SyncRep'",
    );
    say(`after 1 s, ${held?.waiting ?? 0} COMMITs wait for ${standby.name}`);
    const stallGap = await writeGap(stalledAt).finally(() => resumed);
    gaps['the synchronous standby stalled'] = stallGap;
    const commitsHeld = held?.waiting ?? 0;
    say(`${standby.name} (the synchronous standby) stopped; write gap ${stallGap.toFixed(1)} s`);
    await resumed;
    await cluster.whenSynchronous();
    await sleep(2_000);
    running = false;
    await started.load;

    // A 503 is an outage: the client resends it under the same key, as the docs say.
    const resent: Sent[] = [];
    for (const refused of [...sent, ...sentThroughBff].filter((s) => s.status !== 201))
      resent.push(await refused.resend());
    const url = await leaderUrl('tidewater');
    const rowsOf = await ledgerRowsByKey(url);
    const acknowledged = [...sent, ...sentThroughBff, ...resent].filter((s) => s.status === 201);
    const bffCount = (status: number) => sentThroughBff.filter((s) => s.status === status).length;
    const slowest = Math.max(...sent.map((s) => s.at - s.sentAt));
    const count = (status: number) => sent.filter((s) => s.status === status).length;
    return {
      figures: {
        'deposits sent': sent.length,
        'answered 201 / 503 / 500': `${count(201)} / ${count(503)} / ${count(500)}`,
        'through the BFF (sessions on the multi-host URL) 201 / 503 / other': `${bffCount(201)} / ${bffCount(503)} / ${sentThroughBff.length - bffCount(201) - bffCount(503)}`,
        ...Object.fromEntries(
          Object.entries(gaps).map(([fault, seconds]) => [`write gap, ${fault} (s)`, seconds.toFixed(1)]),
        ),
        'COMMITs waiting for the stopped standby after 1 s': commitsHeld,
        [`writes resumed while the standby was still stopped (${STALL_MS / 1000} s)`]:
          stallGap < STALL_MS / 1000 ? 'yes' : 'no',
        'refusals resent / answered 201 / 409 in flight': `${resent.length} / ${resent.filter((s) => s.status === 201).length} / ${resent.filter(inDoubt).length}`,
        'slowest answer (s)': (slowest / 1000).toFixed(1),
        'acknowledged / found in the ledger': `${acknowledged.length} / ${acknowledged.filter((s) => rowsOf.get(s.key) === 1).length}`,
      },
      checks: [
        check(
          'no 500 (nor any status but 201 and 503)',
          sent
            .filter((s) => s.status !== 201 && s.status !== 503)
            .map((s) => `${s.key}: ${s.status} ${s.errorCode}`),
        ),
        check(
          'through the BFF: no 500, the session kept (no 401), every answer 201 or 503',
          sentThroughBff
            .filter((s) => s.status !== 201 && s.status !== 503)
            .map((s) => `${s.key}: ${s.status} ${s.errorCode}`),
        ),
        ...ledgerChecks('0 acknowledged sends lost: every 201 in the ledger, once', acknowledged, rowsOf),
        check(
          'every resend of a refusal answered 201, or 409 while its key waits for a commit in doubt',
          resent
            .filter((s) => s.status !== 201 && !inDoubt(s))
            .map((s) => `${s.key}: ${s.status} ${s.errorCode}`),
        ),
        check(
          `every answer within the API's answer budget (${ANSWER_BUDGET_MS / 1000} s)`,
          slowest <= ANSWER_BUDGET_MS + 1_000 ? [] : [`${(slowest / 1000).toFixed(1)} s`],
        ),
        check(
          `every write gap within the ${DEADLINE_S} s deadline`,
          Object.entries(gaps)
            .filter(([, s]) => s >= DEADLINE_S)
            .map(([fault, s]) => `${fault}: ${s.toFixed(1)} s`),
        ),
        check(
          'the stalled standby was the one the primary waited for',
          (waitsFor?.names ?? '').includes(standby.name)
            ? []
            : [`the primary waited for ${JSON.stringify(waitsFor?.names)}`],
        ),
        check('the audit chains verify', await auditVerify(url)),
      ],
    };
  } finally {
    running = false;
    await started.load?.catch(() => undefined);
    await started.bff?.stop().catch(() => undefined);
    await started.api?.stop().catch(() => undefined);
    await started.haproxy?.stop().catch(() => undefined);
    await started.cluster?.stop().catch(() => undefined);
  }
}

const dir = mkdtempSync('/tmp/tidewater-patroni-');
chmodSync(dir, 0o755); // the servers' user walks through it to its node
const began = performance.now();
try {
  report(
    `the Patroni drill (the API on ${throughHaproxy ? 'HAProxy' : 'the multi-host URL'})`,
    `${throughHaproxy ? 'patroni-drill-haproxy' : 'patroni-drill'}`,
    await drill(dir),
    (performance.now() - began) / 1000,
  );
} catch (error) {
  console.error('the Patroni drill could not finish:', error);
  report(
    `the Patroni drill (the API on ${throughHaproxy ? 'HAProxy' : 'the multi-host URL'})`,
    `${throughHaproxy ? 'patroni-drill-haproxy' : 'patroni-drill'}`,
    undefined,
    (performance.now() - began) / 1000,
  );
} finally {
  if (process.env.KEEP_DRILL_DIR) console.log(`kept ${dir}`);
  else rmSync(dir, { recursive: true, force: true });
}
