/**
 * The faults of the outage matrix, each one real (adr/0011): nothing
 * is mocked; the API meets a stopped, paused, resetting, exhausted or refusing PostgreSQL.
 *
 * | fault      | how it is made                                                                 |
 * |------------|--------------------------------------------------------------------------------|
 * | refused    | the cluster is stopped (`pg_ctl stop -m fast`): every login is refused         |
 * | hung       | every process of the cluster is paused with SIGSTOP                            |
 * | reset      | the API reaches PostgreSQL through `tcpProxy`, which resets each connection at its first statement after BEGIN (mid-transaction) or mid-statement |
 * | pool       | DB_POOL_MAX=1: a request of the holder operation takes the one connection and waits on every table, locked ACCESS EXCLUSIVE by a test client; everything else waits for the pool (DB_POOL_WAIT_MS) |
 * | transient  | the API's sessions are ended and test clients take every connection slot: each login (each attempt) gets 53300 too_many_connections, a code the classifier names |
 * | hang-up    | the cluster is paused and the client hangs up 300 ms into its request          |
 */
import type { PgCluster } from '@tidewater/test-support/pgCluster';
import { classify } from '../../server/src/data/retry/index.ts';
import { endOtherSessions, lockEveryTable, lockWaiters, takeEveryConnectionSlot, waitUntilAcceptingLogins } from './pgLoad.ts';
import type { Answer, NoAnswer } from './sendRequest.ts';
import type { TcpProxy } from '@tidewater/test-support/tcpProxy';

/** What a fault acts on. */
export interface FaultContext {
  cluster: PgCluster;
  /** The API's path to the database when the fault needs it (`viaProxy`). */
  proxy: TcpProxy;
  database: string;
  /** The API's log lines so far (the evidence of what the API met). */
  logLines: string[];
  /** Sends the pool holder's request through the API (not awaited by the fault). */
  sendHolder(): Promise<Answer | NoAnswer>;
}

/** Why the API's log shows no error of this kind, or undefined when it does. */
function loggedError(logLines: string[], pattern: RegExp, what: string): string | undefined {
  return logLines.some((line) => pattern.test(line)) ? undefined : `the API logged no ${what} (${pattern})`;
}

/** Undoes a fault: the database is back. */
type Lift = () => Promise<void>;

/** One fault: how to make it, and prove it happened. */
export interface Fault {
  id: 'refused' | 'hung' | 'reset' | 'pool' | 'transient' | 'hang-up';
  title: string;
  /** Environment of its API process on top of the scaled timeout chain. */
  apiEnv?: Record<string, string>;
  /** The API's DATABASE_URL goes through the proxy. */
  viaProxy?: boolean;
  /** The client hangs up this long after sending. */
  hangUpAfterMs?: number;
  /** Makes the fault; answers how to undo it. */
  inject(context: FaultContext): Promise<Lift>;
  /** After the requests, before the lift: why the fault was not what it claims, if it was not. */
  evidence?(context: FaultContext): Promise<string | undefined>;
}

/** With afterBytes 12 a simple-protocol BEGIN (11 bytes) passes and the next statement is cut. */
const RESET_AFTER_BYTES = 12;

/** The six faults, in the order the matrix runs them. */
export const faults: Fault[] = [
  {
    id: 'refused',
    title: 'database refused (stopped)',
    inject: async ({ cluster }) => {
      await cluster.stop();
      return () => cluster.start();
    },
  },
  {
    id: 'hung',
    title: 'database hung (SIGSTOP)',
    inject: async ({ cluster }) => {
      await cluster.pause();
      return () => cluster.resume();
    },
  },
  {
    id: 'reset',
    title: 'connection reset mid-transaction',
    viaProxy: true,
    inject: async ({ proxy }) => {
      proxy.mode('reset-after-bytes', { afterBytes: RESET_AFTER_BYTES });
      return async () => proxy.mode('pass');
    },
    evidence: async ({ proxy }) => {
      const { resets, resetsInTransaction } = proxy.stats();
      return resetsInTransaction === 0 ? `the proxy reset ${resets} connection(s), none inside a transaction` : undefined;
    },
  },
  {
    id: 'pool',
    title: 'pool exhausted',
    // The holder waits on the lock until its statement timeout (1.9 s); every other
    // request gives up on the pool well before: one wait of 150 ms (a pool wait is not retried).
    apiEnv: { DB_POOL_MAX: '1', DB_POOL_WAIT_MS: '150', DB_STATEMENT_TIMEOUT_MS: '1900' },
    inject: async ({ cluster, database, sendHolder }) => {
      const releaseLocks = await lockEveryTable(cluster.urlFor(database));
      const holder = sendHolder();
      for (let waited = 0; (await lockWaiters(cluster.url, database)) === 0; waited += 20) {
        if (waited > 3_000) {
          await releaseLocks();
          throw new Error(`the holder request never waited on the locked tables (${JSON.stringify(await holder)}): the pool is not held`);
        }
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
      return async () => {
        await releaseLocks();
        await holder;
      };
    },
    // Locked tables alone would also end in 503s (at the deadline): the pool's own refusal proves the pool was the fault.
    evidence: async ({ logLines }) =>
      loggedError(logLines, /timeout exceeded when trying to connect|Unable to start a transaction in the given time/, 'pool-wait timeout'),
  },
  {
    id: 'transient',
    title: 'transient error on every attempt (53300)',
    inject: async ({ cluster, database }) => {
      await endOtherSessions(cluster.url, database);
      const taken = await takeEveryConnectionSlot(cluster.url);
      const kind = classify(taken.refusal)?.kind;
      if (kind !== 'tooManyConnections') {
        await taken.release();
        throw new Error(`the server refused a login with ${String(taken.refusal)}, which the classifier calls ${kind}, not tooManyConnections`);
      }
      return async () => {
        await taken.release();
        await waitUntilAcceptingLogins(cluster.url);
      };
    },
    evidence: async ({ logLines }) => loggedError(logLines, /53300|too many clients/, '53300 too_many_connections'),
  },
  {
    id: 'hang-up',
    title: 'client hang-up (database hung)',
    hangUpAfterMs: 300,
    inject: async ({ cluster }) => {
      await cluster.pause();
      return () => cluster.resume();
    },
  },
];
