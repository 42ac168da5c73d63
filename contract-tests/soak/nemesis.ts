/**
 * The soak's nemesis (adr/0011): it acts on the soak's own cluster and proxy only, one
 * fault at a time, each for a random while, with quiet between, and records every fault's
 * window for the checks and the report.
 *
 * | fault        | how                                                                  |
 * |--------------|----------------------------------------------------------------------|
 * | stop         | `pg_ctl stop -m fast`, then start                                    |
 * | crash        | `pg_ctl stop -m immediate` (no checkpoint: recovery at the next start) |
 * | hang         | SIGSTOP on every process of the primary, past the API's deadline      |
 * | terminate    | `pg_terminate_backend` on every session of the bank's database       |
 * | reset        | the TCP proxy resets every live connection, again and again          |
 * | partition    | the TCP proxy swallows everything (blackhole) for 1.5 × the deadline, then resets what it swallowed |
 * | lost-answer  | the next COMMITs and one-statement deposits reach the database, which acts; their answers are dropped |
 * | replica-stop | the streaming replica stops, then starts (with `--replica`)          |
 */
import { query } from '@tidewater/test-support/bankDatabase';
import type { PgCluster } from '@tidewater/test-support/pgCluster';
import type { TcpProxy } from '@tidewater/test-support/tcpProxy';
import type { Random } from './random.ts';

/** A kind of fault. */
/** `replication-cut` and `failover` are the failover drill's (failover.ts). */
export type FaultKind = 'stop' | 'crash' | 'hang' | 'terminate' | 'reset' | 'partition' | 'lost-answer' | 'replica-stop' | 'replication-cut' | 'failover';

/** When one fault was on. */
export interface FaultWindow {
  kind: FaultKind;
  startedAt: number;
  healedAt: number;
}

/** What the nemesis acts on, and its numbers. */
export interface NemesisTargets {
  primary: PgCluster;
  replica?: PgCluster;
  proxy: TcpProxy;
  /** The bank's database on the primary. */
  database: string;
  /** How long a hang lasts: past the API's deadline, so requests meet it whole. */
  hangMs: number;
  /** How long a partition lasts: 1.5 × the deadline, so requests meet it whole and the circuit breaker's probes do too. */
  partitionMs: number;
  /** A fault's length, and the quiet before it, in ms. */
  faultMs: readonly [number, number];
  quietMs: readonly [number, number];
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Answers dropped per kind in one lost-answer fault: a few sends at once, not the whole load. */
const LOST_ANSWERS = 4;

/** The nemesis of one soak. */
export function nemesis(targets: NemesisTargets, random: Random) {
  const { primary, replica, proxy, database } = targets;
  const kinds: FaultKind[] = ['stop', 'crash', 'hang', 'terminate', 'reset', 'partition', 'lost-answer', ...(replica ? (['replica-stop'] as const) : [])];

  async function act(kind: FaultKind, forMs: number): Promise<void> {
    switch (kind) {
      case 'stop':
      case 'crash':
        await (kind === 'stop' ? primary.stop() : primary.crash());
        await sleep(forMs);
        await primary.start();
        return;
      case 'hang':
        await primary.pause();
        await sleep(targets.hangMs);
        await primary.resume();
        return;
      case 'terminate':
        for (const until = Date.now() + forMs; Date.now() < until; await sleep(250)) {
          await query(primary.url, 'SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = $1 AND pid <> pg_backend_pid()', [database]);
        }
        return;
      case 'reset':
        for (const until = Date.now() + forMs; Date.now() < until; await sleep(150)) proxy.resetAll();
        return;
      case 'partition':
        proxy.mode('blackhole');
        await sleep(targets.partitionMs);
        proxy.mode('pass');
        return;
      case 'lost-answer':
        // Each acted on by the database, its answer never delivered: the API must learn the outcome itself.
        proxy.arm('dropAnswerTo', 'COMMIT', LOST_ANSWERS);
        proxy.arm('dropAnswerTo', '"operation":"', LOST_ANSWERS); // every money send's one statement (adr/0041)
        await sleep(forMs);
        proxy.disarm();
        return;
      case 'replica-stop':
        await replica!.stop();
        await sleep(forMs);
        await replica!.start();
        return;
    }
  }

  return {
    kinds,
    /** Runs `count` faults, every kind in turn in a shuffled order; answers their windows. */
    async run(count: number, windows: FaultWindow[] = []): Promise<FaultWindow[]> {
      const plan: FaultKind[] = [];
      while (plan.length < count) plan.push(...random.shuffled(kinds));
      for (const kind of plan.slice(0, count)) {
        await sleep(random.int(...targets.quietMs));
        const startedAt = Date.now();
        await act(kind, random.int(...targets.faultMs));
        windows.push({ kind, startedAt, healedAt: Date.now() });
      }
      return windows;
    },
    /** Undoes whatever may still be on (after an error): resumed, started, passing. */
    async healAll(): Promise<void> {
      await primary.resume().catch(() => undefined);
      if (primary.pids().length === 0) await primary.start();
      proxy.mode('pass');
      proxy.disarm();
      if (replica && replica.pids().length === 0) await replica.start();
    },
  };
}
