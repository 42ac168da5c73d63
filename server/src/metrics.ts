/**
 * The API's metrics (adr/0017-metrics.md): every metric name of this tier, and one small
 * function per event, called in one line where the event happens (the retry policy, the
 * circuit breakers, the pools, the idempotency protocol, the problem handler). Served in Prometheus's
 * text format on a listener of its own (API_METRICS_HOST:API_METRICS_PORT, `/metrics`),
 * never on the API's port: `metricsServer.ts`.
 *
 * Labels are bounded by construction: an operationId from the spec, a status, a cause, an
 * outcome or a pool/breaker name from the fixed lists below, and a retry reason that is a
 * SQLSTATE or a classifier code (`bounded()` caps them). No user id, account id, key or
 * URL is ever a label (metrics.test.ts asserts it).
 *
 * One registry per process. With several API workers (API_WORKERS, adr/0016) each worker
 * keeps its own and the cluster's primary serves their sum (`clusterMetrics()`): counters
 * and histograms add up, the pool and budget gauges too (they are per process), and the
 * circuit breaker's "passing" gauge is the least of the workers' (open in any worker shows
 * refusing).
 *
 * The circuit breaker's four series keep the names they had when it was called the
 * readiness gate (`tidewater_readiness_gate_*`, label `gate`): the dashboard
 * (ops/grafana/tidewater.json) and the alerts an operator wrote query them. Their
 * `_open` gauge is 1 while the breaker is closed (passing), 0 while it is open or
 * half-open (refusing); `_closures_total` counts the breaker's openings.
 */
import { AggregatorRegistry, collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';
import { currentContext } from './request/requestContext.ts';

/** The process's registry: what `/metrics` serves. */
export const registry = new Registry();
collectDefaultMetrics({ register: registry });

/** Why a request was answered 503 (`tidewater_unavailable_total{cause}`). */
export type UnavailableCause =
  | 'deadline'
  | 'retries_spent'
  | 'retry_budget_spent'
  | 'pool_wait'
  | 'connect_timeout'
  | 'transient_sqlstate'
  | 'insufficient_resources'
  | 'connection'
  | 'database_unavailable'
  | 'commit_outcome_unknown'
  | 'busy_account'
  | 'hashing_queue'
  | 'other';

/** What one retry decision of the retry policy was. */
export type RetryOutcome = 'retried' | 'breaker_wait' | 'retries_spent' | 'budget_spent';

/** What claiming an Idempotency-Key ended in. */
export type IdempotencyOutcome = 'first' | 'replayed' | 'in_flight' | 'reused' | 'stale_taken_over' | 'result_unknown';

/** The names, in one place (README "Metrics", adr/0017). */
export const metricNames = {
  requestDuration: 'tidewater_http_request_duration_seconds',
  unavailable: 'tidewater_unavailable_total',
  retries: 'tidewater_db_retries_total',
  retryBudgetTokens: 'tidewater_retry_budget_tokens',
  retryBudgetRefusals: 'tidewater_retry_budget_refusals_total',
  lostLockWaits: 'tidewater_lost_lock_waits_total',
  breakerPassing: 'tidewater_readiness_gate_open',
  breakerWaiters: 'tidewater_readiness_gate_waiters',
  breakerProbes: 'tidewater_readiness_gate_probes_total',
  breakerOpenings: 'tidewater_readiness_gate_closures_total',
  commitGateRefusals: 'tidewater_commit_gate_refusals_total',
  commitGateDisarms: 'tidewater_commit_gate_disarms_total',
  auditedSaveChecks: 'tidewater_audited_save_checks_total',
  idempotency: 'tidewater_idempotency_outcomes_total',
  poolConnections: 'tidewater_pool_connections',
  replicaFallbacks: 'tidewater_replica_fallbacks_total',
  reads: 'tidewater_reads_total',
  readYourWritesMarksMissed: 'tidewater_read_your_writes_marks_missed_total',
  connectionSourceAttempts: 'tidewater_connection_source_attempts_total',
  connectionSourceRetrievals: 'tidewater_connection_source_retrievals_total',
} as const;

const registers = [registry];

/** In a cluster worker: answer the primary's scrapes from this process's registry. */
export function shareWithClusterPrimary(): void {
  AggregatorRegistry.setRegistries([registry]);
  // prom-client adds a worker's answering listener only when an AggregatorRegistry is made.
  new AggregatorRegistry();
}

/** In the cluster's primary: what `/metrics` serves, the sum of every worker's registry. */
export function clusterMetrics(): { metrics(): Promise<string>; readonly contentType: string } {
  const aggregator = new AggregatorRegistry();
  return { metrics: () => aggregator.clusterMetrics(), contentType: aggregator.contentType };
}

/** The most distinct values one free-text label may take; the rest are `other`. */
const MAX_LABEL_VALUES = 40;
const seenReasons = new Set<string>();

/** A retry reason as a label: a short upper-case code (a SQLSTATE, ECONNREFUSED, POOL_TIMEOUT), at most 40 of them. */
export function bounded(code: string): string {
  if (!/^[0-9A-Z_]{1,24}$/.test(code)) return 'other';
  if (seenReasons.has(code)) return code;
  if (seenReasons.size >= MAX_LABEL_VALUES) return 'other';
  seenReasons.add(code);
  return code;
}

const requestDuration = new Histogram({
  name: metricNames.requestDuration,
  help: 'API requests by operationId and status (499: the client hung up), in seconds.',
  labelNames: ['operation', 'status'],
  buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 20, 40],
  registers,
});
const unavailable = new Counter({ name: metricNames.unavailable, help: 'Answers 503, by cause.', labelNames: ['cause'], registers });
const retries = new Counter({
  name: metricNames.retries,
  help: 'Retry decisions of the one retry layer, by reason (SQLSTATE or classifier code) and outcome (retried, breaker_wait: waited for the circuit breaker to close, retries_spent, budget_spent).',
  labelNames: ['reason', 'outcome'],
  registers,
});
const budgetRefusals = new Counter({ name: metricNames.retryBudgetRefusals, help: 'Retries the retry budget refused (each made a failure final).', registers });
const lostLockWaits = new Counter({ name: metricNames.lostLockWaits, help: 'Attempts of a contended write that lost their row-lock wait (55P03).', registers });
const breakerProbes = new Counter({ name: metricNames.breakerProbes, help: "Probe logins of the database's circuit breaker (about one per DB_READINESS_PROBE_MS while open), by outcome.", labelNames: ['gate', 'outcome'], registers });
const breakerOpenings = new Counter({ name: metricNames.breakerOpenings, help: "Times the database's circuit breaker opened (the database could not be reached).", labelNames: ['gate'], registers });
const commitGateRefusals = new Counter({ name: metricNames.commitGateRefusals, help: "Statements or COMMITs the commit gate refused because the request's signal had fired.", labelNames: ['at'], registers });
const commitGateDisarms = new Counter({ name: metricNames.commitGateDisarms, help: 'COMMITs that started and disarmed the deadline.', registers });
const auditedSaveChecks = new Counter({ name: metricNames.auditedSaveChecks, help: 'Looks for a save whose COMMIT answer was lost, by outcome (landed, not_landed, unknown).', labelNames: ['outcome'], registers });
const idempotency = new Counter({ name: metricNames.idempotency, help: 'Claims of an Idempotency-Key, by outcome.', labelNames: ['outcome'], registers });
const replicaFallbacks = new Counter({ name: metricNames.replicaFallbacks, help: 'Reads sent to the primary because the replica could not be reached.', registers });
const reads = new Counter({
  name: metricNames.reads,
  help: 'Read connections handed out, by where they read (replica, primary) and why (replica, read_your_writes: the user wrote recently, request_wrote, no_replica).',
  labelNames: ['served_by', 'reason'],
  registers,
});
const marksMissed = new Counter({
  name: metricNames.readYourWritesMarksMissed,
  help: "Read-your-writes marks not committed when their write answered, by outcome (late: still waiting after the mark's wait; failed).",
  labelNames: ['outcome'],
  registers,
});
const sourceAttempts = new Counter({ name: metricNames.connectionSourceAttempts, help: 'HTTP attempts at the connection service, by outcome (value, transient, fatal).', labelNames: ['outcome'], registers });
const sourceRetrievals = new Counter({ name: metricNames.connectionSourceRetrievals, help: 'Connection-string retrievals, by outcome (retrieved, exhausted, fatal).', labelNames: ['outcome'], registers });

/** The live things the gauges read at each scrape (the latest of each name wins). */
interface BudgetLike {
  state(): { tokens: number };
}
interface BreakerLike {
  readonly name: string;
  snapshot(): { state: 'closed' | 'open' | 'half-open'; waiters: number };
}
interface PoolLike {
  readonly totalCount: number;
  readonly idleCount: number;
  readonly waitingCount: number;
}
let budget: BudgetLike | undefined;
const breakers = new Map<string, BreakerLike>();
const pools = new Map<string, PoolLike>();

new Gauge({
  name: metricNames.retryBudgetTokens,
  help: 'Tokens in the retry budget now (a retry needs one).',
  registers,
  collect() {
    if (budget) this.set(budget.state().tokens);
  },
});
new Gauge({
  name: metricNames.breakerPassing,
  help: "The database's circuit breaker: 1 closed (passing), 0 open or half-open (refusing: the database is known to be down).",
  labelNames: ['gate'],
  registers,
  aggregator: 'min',
  collect() {
    for (const [name, breaker] of breakers) this.set({ gate: name }, breaker.snapshot().state === 'closed' ? 1 : 0);
  },
});
new Gauge({
  name: metricNames.breakerWaiters,
  help: "Requests waiting for the database's circuit breaker to close.",
  labelNames: ['gate'],
  registers,
  collect() {
    for (const [name, breaker] of breakers) this.set({ gate: name }, breaker.snapshot().waiters);
  },
});
new Gauge({
  name: metricNames.poolConnections,
  help: 'pg pool connections, by pool and state (total, idle, waiting: requests waiting for one).',
  labelNames: ['pool', 'state'],
  registers,
  collect() {
    for (const [name, pool] of pools) {
      this.set({ pool: name, state: 'total' }, pool.totalCount);
      this.set({ pool: name, state: 'idle' }, pool.idleCount);
      this.set({ pool: name, state: 'waiting' }, pool.waitingCount);
    }
  },
});

/** A request ended: `operation` is its operationId (`unknown` when none matched). */
export function observeRequest(operation: string, status: number, seconds: number): void {
  requestDuration.observe({ operation, status: String(status) }, seconds);
}

/** A request was answered 503 for `cause`. */
export function countUnavailable(cause: UnavailableCause): void {
  unavailable.inc({ cause });
}

/** Names why the current request will answer 503, when the error it ends in cannot tell (a busy account, spent retries). */
export function noteUnavailableCause(cause: UnavailableCause): void {
  const context = currentContext();
  if (context) context.unavailableCause = cause;
}

/** One decision of the retry policy about a failure with this reason code. */
export function countRetry(code: string, outcome: RetryOutcome): void {
  retries.inc({ reason: bounded(code), outcome });
  if (outcome === 'budget_spent') budgetRefusals.inc();
  if (outcome === 'retries_spent' || outcome === 'budget_spent') noteUnavailableCause(outcome === 'budget_spent' ? 'retry_budget_spent' : 'retries_spent');
}

/** A contended write lost one row-lock wait. */
export function countLostLockWait(): void {
  lostLockWaits.inc();
}

/** The retry budget whose tokens the gauge shows. */
export function watchRetryBudget(watched: BudgetLike): void {
  budget = watched;
}

/** A circuit breaker to show; answers its removal (the database closed). */
export function watchBreaker(breaker: BreakerLike): () => void {
  breakers.set(breaker.name, breaker);
  return () => {
    if (breakers.get(breaker.name) === breaker) breakers.delete(breaker.name);
  };
}

/** A probe login of the circuit breaker `breaker` ended. */
export function countBreakerProbe(breaker: string, ok: boolean): void {
  breakerProbes.inc({ gate: breaker, outcome: ok ? 'ok' : 'failed' });
}

/** The circuit breaker `breaker` opened. */
export function countBreakerOpening(breaker: string): void {
  breakerOpenings.inc({ gate: breaker });
}

/** The commit gate refused a statement or a COMMIT (the signal had fired). */
export function countCommitGateRefusal(at: 'statement' | 'commit'): void {
  commitGateRefusals.inc({ at });
}

/** A COMMIT started and disarmed the deadline. */
export function countCommitGateDisarm(): void {
  commitGateDisarms.inc();
}

/** A look for a save whose COMMIT answer was lost ended. */
export function countAuditedSaveCheck(outcome: 'landed' | 'not_landed' | 'unknown'): void {
  auditedSaveChecks.inc({ outcome });
}

/** Claiming an Idempotency-Key ended in `outcome`. */
export function countIdempotency(outcome: IdempotencyOutcome): void {
  idempotency.inc({ outcome });
}

/** A pg pool to show under `name` (primary, primary_read_only, replica); answers its removal. */
export function watchPool(name: string, pool: PoolLike): () => void {
  pools.set(name, pool);
  return () => {
    if (pools.get(name) === pool) pools.delete(name);
  };
}

/** A read went to the primary because the replica could not be reached. */
export function countReplicaFallback(): void {
  replicaFallbacks.inc();
}

/** A read connection was handed out. */
export function countRead(servedBy: 'replica' | 'primary', reason: 'replica' | 'read_your_writes' | 'request_wrote' | 'no_replica'): void {
  reads.inc({ served_by: servedBy, reason });
}

/** A write answered before its read-your-writes mark was committed (adr/0078). */
export function countReadYourWritesMarkMissed(outcome: 'late' | 'failed'): void {
  marksMissed.inc({ outcome });
}

/** One attempt at the connection service ended. */
export function countConnectionSourceAttempt(outcome: 'value' | 'transient' | 'fatal'): void {
  sourceAttempts.inc({ outcome });
}

/** A connection-string retrieval ended. */
export function countConnectionSourceRetrieval(outcome: 'retrieved' | 'exhausted' | 'fatal'): void {
  sourceRetrievals.inc({ outcome });
}
