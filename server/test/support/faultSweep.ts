/**
 * What the network fault sweep (money/networkFaultSweep.test.ts) runs on: the API on a short
 * timeout chain, reaching its primary through the TCP fault proxy and reading from a streaming
 * replica with read-your-writes marks in the database (what several API processes use, adr/0016),
 * so every statement a transfer can send is on the wire; an integrator's client that records
 * every answer; and the checks of those answers and of the money.
 */
import { createTidewaterClient, type TidewaterClient } from '@tidewater/client';
import { startApi, type ApiProcess } from '@tidewater/test-support/apiProcess';
import { query } from '@tidewater/test-support/bankDatabase';
import { loadOpenApiDocument } from '@tidewater/test-support/openApiDocument';
import { startPrimary, startReplica, type PgCluster } from '@tidewater/test-support/pgCluster';
import { createResponseValidator } from '@tidewater/test-support/responseValidator';
import { startTcpProxy, type TcpProxy } from '@tidewater/test-support/tcpProxy';

const DEADLINE_MS = 1_500;
/** A partition outlasts the deadline by half, as the soak's does: the request meets it to its end. */
export const PARTITION_MS = DEADLINE_MS * 1.5;
/** Stale-after, at the chain's least (deadline + 60 s): a claim no request holds waits this long. */
const STALE_AFTER_MS = DEADLINE_MS + 60_000;

/**
 * The chain scaled under a 1.5 s deadline, one retry (each fault meets an attempt and its
 * retry), marks in the database. One API process, so every request meets the same caches;
 * `SWEEP_WORKERS=2` runs the sweep on two, as the soak's `--workers 2`.
 */
const sweepEnv = {
  // One customer sends by handle dozens of times a minute: past the payee limit those sends share (adr/0064), which is not what the sweep looks at.
  PAYEE_LOOKUP_LIMIT: '100000',
  REQUEST_DEADLINE_MS: String(DEADLINE_MS),
  DB_STATEMENT_TIMEOUT_MS: '1000',
  DB_CONNECT_TIMEOUT_MS: '300',
  DB_COMMIT_TIMEOUT_MS: '300',
  DB_POOL_WAIT_MS: '300',
  DB_MAX_RETRIES: '1',
  DB_RETRY_BASE_DELAY_MS: '50',
  DB_RETRY_MAX_DELAY_MS: '200',
  DB_READINESS_PROBE_MS: '250',
  IDEMPOTENCY_STORE_BUDGET_MS: '300',
  IDEMPOTENCY_RELEASE_BUDGET_MS: '300',
  ACCOUNT_LOCK_WAIT_MS: '100',
  IDEMPOTENCY_STALE_AFTER_MS: String(STALE_AFTER_MS),
  READ_YOUR_WRITES_STORE: 'database',
  API_WORKERS: process.env.SWEEP_WORKERS ?? '1',
  LOG_LEVEL: 'info',
};

/** The stack of the sweep. */
export interface SweepStack {
  primary: PgCluster;
  /** The bank's database on the primary, directly (never through the proxy). */
  url: string;
  proxy: TcpProxy;
  api: ApiProcess;
  stop(): Promise<void>;
}

/** Starts a primary, its replica, the proxy and the API; `stop()` undoes whatever started. */
export async function startSweepStack(): Promise<SweepStack> {
  const started: { primary?: PgCluster; replica?: PgCluster; proxy?: TcpProxy; api?: ApiProcess } = {};
  const stop = async () => {
    await started.api?.stop();
    await started.proxy?.close();
    await started.replica?.destroy();
    await started.primary?.destroy();
  };
  try {
    const primary = (started.primary = await startPrimary());
    const replica = (started.replica = await startReplica(primary));
    const proxy = (started.proxy = await startTcpProxy({ host: '127.0.0.1', port: primary.port }));
    const api = (started.api = await startApi({
      ...sweepEnv,
      DATABASE_URL: proxy.urlFor(primary.urlFor('tidewater')),
      DATABASE_REPLICA_URL: replica.urlFor('tidewater'),
      DATABASE_REPLICA_FALLBACK: '1',
    }));
    return { primary, url: primary.urlFor('tidewater'), proxy, api, stop };
  } catch (error) {
    await stop().catch(() => undefined);
    throw error;
  }
}

/** One answer the client got (status 0: none, the connection failed). */
export interface Answer {
  operationId: string;
  status: number;
  errorCode: string | undefined;
  violations: string[];
}

const validator = createResponseValidator(loadOpenApiDocument());

/** The operation a request of the sweep's client is. */
function operationOf(method: string, path: string): string {
  if (method === 'POST' && path === '/api/transfers/internal') return 'createInternalTransfer';
  if (method === 'GET' && path.startsWith('/api/idempotency-keys/')) return 'getIdempotencyKey';
  return `${method} ${path}`;
}

/**
 * The integrator's client (@tidewater/client, whose `moneySend` follows the docs) for
 * `token`, every answer checked against the spec and pushed to `answers`.
 */
export function recordingClient(baseUrl: string, token: string, answers: Answer[]): TidewaterClient {
  return createTidewaterClient({
    baseUrl,
    accessToken: () => token,
    async fetch(input: RequestInfo | URL, init?: RequestInit) {
      const request = new Request(input, init);
      const operationId = operationOf(request.method, new URL(request.url).pathname);
      let response: Response;
      try {
        response = await fetch(request);
      } catch (error) {
        answers.push({ operationId, status: 0, errorCode: undefined, violations: [`no answer: ${String(error)}`] });
        throw error;
      }
      const bodyText = await response.clone().text();
      const errorCode = /"errorCode":"([A-Z_]+)"/.exec(bodyText)?.[1];
      const violations = validator.validate(operationId, { status: response.status, headers: response.headers, bodyText });
      answers.push({ operationId, status: response.status, errorCode, violations });
      return response;
    },
  });
}

/** What the database says of the money: the total of every balance, and a key's ledger rows. */
export async function totalBalance(url: string): Promise<number> {
  const [row] = await query<{ total: string }>(url, 'SELECT coalesce(sum(balance_minor), 0)::text AS total FROM accounts');
  return Number(row!.total);
}

export async function ledgerRowsOf(url: string, key: string): Promise<number> {
  const [row] = await query<{ n: number }>(url, 'SELECT count(*)::int AS n FROM ledger_entries WHERE idempotency_key = $1', [key]);
  return row!.n;
}

/**
 * The stale-after wait, passed: a claim of `key` that no request holds any more (its insert
 * committed, its answer lost) is made as old as stale-after, as the documented wait would
 * make it. A claim that landed is left alone, and a live request's fence (its owner token)
 * is not touched.
 */
export async function letClaimGoStale(url: string, key: string): Promise<number> {
  const rows = await query(url, `UPDATE idempotency_records SET claimed_at = claimed_at - $2::int * interval '1 millisecond'
    WHERE key = $1 AND status = 'Processing' AND landed_at IS NULL RETURNING id`, [key, STALE_AFTER_MS]);
  return rows.length;
}

/** Lines of the API's log that a sweep must never see: a 500's, an illegal commit transition, an unhandled error. */
export function suspiciousLines(api: ApiProcess, from = 0): string[] {
  return api.logLines.slice(from).filter((line) => /"errorCode":"INTERNAL"|IllegalCommitTransition|unhandled|uncaught/i.test(line));
}
