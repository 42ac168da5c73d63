/**
 * One family of the server's table (config.ts): each default with its reason and its environment variable.
 */
import { timeoutChain as chain } from '@tidewater/contract/timeoutChain';

/** The database's connections, their retries and the connection service (adr/0005, adr/0007, adr/0011). */
export const databaseDefaults = {
  /** 10 s (DB_CONNECT_TIMEOUT_MS): bounds each login (and a probe's); the deadline bounds the request around it. */
  dbConnectTimeoutMs: 10_000,
  /** DB_COMMIT_TIMEOUT_MS (timeout chain): bounds each COMMIT and ROLLBACK round trip, the one wait that outlives the deadline. */
  dbCommitTimeoutMs: chain.dbCommitTimeoutMs.defaultMs,
  /** DB_STATEMENT_TIMEOUT_MS (timeout chain): a hung statement ends with 57014; not retried (a slow query stays slow). */
  dbStatementTimeoutMs: chain.dbStatementTimeoutMs.defaultMs,
  /** 4 (DB_MAX_RETRIES): retries of a transient failure; their waits fit in the request deadline (checked below). */
  dbMaxRetries: 4,
  /** DB_RETRY_BASE_DELAY_MS (timeout chain): the first back-off step; steps double, well inside the deadline. */
  dbRetryBaseDelayMs: chain.dbRetryBaseDelayMs.defaultMs,
  /** DB_RETRY_MAX_DELAY_MS (timeout chain): the cap of one back-off wait; Retry-After is derived from it (`retryAfterSeconds`). */
  dbRetryMaxDelayMs: chain.dbRetryMaxDelayMs.defaultMs,
  /** 10 tokens (RETRY_BUDGET_CAPACITY), full at start: a burst of deadlocks (10 requests, or 3 × 3 retries) still retries. */
  retryBudgetCapacity: 10,
  /** 0.1 token per success (RETRY_BUDGET_PER_SUCCESS): sustained retries stay near 10 % of the work that succeeds (gRPC retry throttling's ratio). */
  retryBudgetPerSuccess: 0.1,
  /** 0.5 token per second (RETRY_BUDGET_PER_SECOND): a quiet process still retries an occasional deadlock; a long outage costs one retry per 2 s per process. */
  retryBudgetPerSecond: 0.5,
  /** 12 (DB_POOL_MAX): replicas × pool + jobs fit the server's connection limit. */
  dbPoolMax: 12,
  /** 10 s (DB_POOL_WAIT_MS): waiting for a pooled connection ends in a 503, never a hang; not retried (the pool is busy, not broken). */
  dbPoolWaitMs: 10_000,
  /** 1 s (DB_READINESS_PROBE_MS): while the database cannot be reached, one probe login per this interval per process; every other request waits for it (adr/0011). */
  dbReadinessProbeMs: 1_000,
  /** 5 s (READ_YOUR_WRITES_MS): a user's reads go to the primary this long after they wrote. */
  readYourWritesMs: 5_000,
  /**
   * 1 s (READ_YOUR_WRITES_MARK_WAIT_MS, timeout chain; adr/0078): a write's answer waits this long at most for its user's mark to
   * commit, so the next request, on any API process, reads the primary; a mark that misses it is logged and counted.
   */
  readYourWritesMarkWaitMs: chain.readYourWritesMarkWaitMs.defaultMs,
  /** memory (READ_YOUR_WRITES_STORE): where those marks live; `database` shares them between API processes. */
  readYourWritesStore: 'memory',
  /** 4 (DB_CONNECTION_ATTEMPTS): attempts to fetch the connection string from a connection service. */
  dbConnectionAttempts: 4,
  /** 2 s, 3 s, 5 s (DB_CONNECTION_BACKOFF_MS): waits between those attempts; at least attempts − 1 of them. */
  dbConnectionBackoffMs: [2_000, 3_000, 5_000] as readonly number[],
  /** 5 s (DB_CONNECTION_ATTEMPT_TIMEOUT_MS): one attempt at the connection service. */
  dbConnectionAttemptTimeoutMs: 5_000,
  /**
   * named (DB_PREPARED_STATEMENTS): each direct statement is prepared once per connection
   * under its own name (data/statements.ts, `preparedOf`). `unnamed` names none, so PgBouncer's
   * transaction pooling (which moves a client between server connections) works (adr/0060).
   */
  dbPreparedStatements: 'named',
  /**
   * startup (DB_SESSION_SETTINGS): the statement timeout, the idle-in-transaction timeout
   * and the read-only sessions are startup parameters of each login. `role`: none is sent
   * (a pooler refuses or drops them); the operator sets them per role (ALTER ROLE … SET),
   * and behind that pooler the pid a connection reports is not its server process (adr/0060).
   * Either way the API checks at start that they hold (sessionSettings.ts).
   */
  dbSessionSettings: 'startup',
} as const;

/** The environment variable of each of databaseDefaults' values. */
export const databaseEnvNames: { [K in keyof typeof databaseDefaults]?: string } = {
  dbConnectTimeoutMs: 'DB_CONNECT_TIMEOUT_MS',
  dbCommitTimeoutMs: chain.dbCommitTimeoutMs.env,
  dbStatementTimeoutMs: chain.dbStatementTimeoutMs.env,
  dbMaxRetries: 'DB_MAX_RETRIES',
  dbRetryBaseDelayMs: chain.dbRetryBaseDelayMs.env,
  dbRetryMaxDelayMs: chain.dbRetryMaxDelayMs.env,
  retryBudgetCapacity: 'RETRY_BUDGET_CAPACITY',
  retryBudgetPerSuccess: 'RETRY_BUDGET_PER_SUCCESS',
  retryBudgetPerSecond: 'RETRY_BUDGET_PER_SECOND',
  dbPoolMax: 'DB_POOL_MAX',
  dbPoolWaitMs: 'DB_POOL_WAIT_MS',
  dbReadinessProbeMs: 'DB_READINESS_PROBE_MS',
  readYourWritesMs: 'READ_YOUR_WRITES_MS',
  readYourWritesMarkWaitMs: chain.readYourWritesMarkWaitMs.env,
  readYourWritesStore: 'READ_YOUR_WRITES_STORE',
  dbConnectionAttempts: 'DB_CONNECTION_ATTEMPTS',
  dbConnectionBackoffMs: 'DB_CONNECTION_BACKOFF_MS',
  dbConnectionAttemptTimeoutMs: 'DB_CONNECTION_ATTEMPT_TIMEOUT_MS',
  dbPreparedStatements: 'DB_PREPARED_STATEMENTS',
  dbSessionSettings: 'DB_SESSION_SETTINGS',
};
