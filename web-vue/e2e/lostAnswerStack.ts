/**
 * A second API and BFF, on the suite's database, for the answer that is lost right after
 * its COMMIT (adr/0013). The API reaches PostgreSQL through a commit trap
 * (commitTrap.ts) that freezes it (SIGSTOP) the instant its money transaction's COMMIT
 * passes, so the money lands (its answer with it, adr/0016) and the API cannot send the
 * answer. Its chain is scaled so the rest of that story fits a test: a 2.5 s deadline (the
 * server then allows a stale-after of 62.5 s), and the BFF gives up after 12 s. Started on demand (`/lost-answer/start`): most runs never need it.
 *
 * - `/lost-answer/arm`: freeze the API at the next fenced COMMIT;
 * - `/lost-answer/restart-api`: SIGKILL the (frozen) API, as a crash would, and start
 *   a new one with the same chain behind the same address: the answer it stored with the money is replayed.
 */
import { startBff, type BffProcess } from '@tidewater/test-support/bffProcess';
import { freePort, startApi, type ApiProcess } from '@tidewater/test-support/apiProcess';
import { startCommitTrap, startForwarder, type CommitTrap } from './commitTrap.ts';
import { signUpLimits } from './stackTimings.ts';

/** The scaled chain of the lost-answer API (checked by the server's own loadConfig at start). */
const lostAnswerTimings = {
  REQUEST_DEADLINE_MS: '2500',
  DB_STATEMENT_TIMEOUT_MS: '1500',
  DB_CONNECT_TIMEOUT_MS: '1000',
  DB_COMMIT_TIMEOUT_MS: '1000',
  DB_POOL_WAIT_MS: '1000',
  DB_RETRY_BASE_DELAY_MS: '50',
  /** The real back-off cap: every outage names the real Retry-After (10 s). */
  DB_RETRY_MAX_DELAY_MS: '10000',
  IDEMPOTENCY_STORE_BUDGET_MS: '1000',
  IDEMPOTENCY_RELEASE_BUDGET_MS: '1000',
  /** The smallest the server allows: the deadline + 60 s. */
  IDEMPOTENCY_STALE_AFTER_MS: '62500',
  ACCOUNT_LOCK_WAIT_MS: '200',
  BFF_UPSTREAM_TIMEOUT_MS: '12000',
} as const;

/** Env var the specs read: the lost-answer BFF's origin. */
export const lostAnswerEnv = 'TIDEWATER_E2E_LOST_ANSWER_URL';

/** The stack's control actions, the env var it adds, and its teardown. */
export async function lostAnswerStack(databasePort: number, databaseName: string) {
  const bffPort = await freePort();
  const forwarder = await startForwarder();
  let trap: CommitTrap | undefined;
  let api: ApiProcess | undefined;
  let bff: BffProcess | undefined;

  async function startLostAnswerApi(): Promise<void> {
    trap ??= await startCommitTrap(databasePort);
    api = await startApi({ DATABASE_URL: `postgres://postgres@127.0.0.1:${trap.port}/${databaseName}`, LOG_LEVEL: 'warn', ...lostAnswerTimings, ...signUpLimits });
    forwarder.retarget(api.port);
  }

  const actions: Record<string, () => Promise<void> | void> = {
    '/lost-answer/start': async () => {
      if (!api) await startLostAnswerApi();
      bff ??= await startBff({
        apiUrl: `http://127.0.0.1:${forwarder.port}`,
        port: bffPort,
        env: { LOG_LEVEL: 'warn', BFF_UPSTREAM_TIMEOUT_MS: lostAnswerTimings.BFF_UPSTREAM_TIMEOUT_MS, DB_RETRY_MAX_DELAY_MS: lostAnswerTimings.DB_RETRY_MAX_DELAY_MS },
      });
    },
    '/lost-answer/arm': async () => {
      const frozen = api;
      if (!trap || !frozen) throw new Error('start the lost-answer stack first');
      trap.arm(() => void frozen.child.kill('SIGSTOP'));
    },
    '/lost-answer/restart-api': async () => {
      if (!api) throw new Error('start the lost-answer stack first');
      const gone = new Promise<void>((resolve) => api!.child.once('exit', () => resolve()));
      api.child.kill('SIGKILL');
      await gone;
      await startLostAnswerApi();
    },
  };

  return {
    actions,
    env: { [lostAnswerEnv]: `http://127.0.0.1:${bffPort}` },
    async stop(): Promise<void> {
      await bff?.stop();
      await api?.stop();
      await trap?.close();
      await forwarder.close();
    },
  };
}
