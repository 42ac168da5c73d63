/**
 * The stack's timeout chain, scaled down for the browser suite (adr/0004: tests run the
 * whole chain scaled through the same env vars). The SPA keeps its real constants (5 s and
 * 20 s hints, 65 s abort, 120 s read budget): a hung database must outlast 20 s through one
 * read and its retry: the API's deadline is 10 s, its Retry-After the real 10 s, and a
 * connection attempt waits 4 s (measured: the retry meets a spent retry budget and answers
 * after one connection attempt, so the read ends at about 10 + 10–12 + 4 ≈ 25 s, well past 20 s).
 */
export const apiTimings = {
  REQUEST_DEADLINE_MS: '10000',
  DB_STATEMENT_TIMEOUT_MS: '6000',
  DB_CONNECT_TIMEOUT_MS: '4000',
  DB_COMMIT_TIMEOUT_MS: '4000',
  DB_POOL_WAIT_MS: '4000',
  DB_RETRY_BASE_DELAY_MS: '200',
  /** The real back-off cap, so every outage names the real Retry-After (10 s): the SPA's hints are timed against it. */
  DB_RETRY_MAX_DELAY_MS: '10000',
  IDEMPOTENCY_STORE_BUDGET_MS: '2000',
  IDEMPOTENCY_RELEASE_BUDGET_MS: '2000',
  /**
   * A send that loses its lock wait on each of its 8 attempts answers busy after 8 × 0.3 s
   * (measured 4.5 s from the click with six sends queued on one account on the busy 2-core
   * runner; 8 s at 500 ms), well inside the 10 s deadline.
   */
  ACCOUNT_LOCK_WAIT_MS: '300',
} as const;

/**
 * Every visitor of every spec signs up from loopback, faster than the 20 a minute one address
 * may (adr/0045); the counts live in the database both APIs on it share. The sign-up limits
 * are the server's tests' to prove (signUpFlood, signUpAndSprays), not these.
 */
export const signUpLimits = { REGISTER_ADDRESS_LIMIT: '1000', REGISTER_GLOBAL_LIMIT: '1000' } as const;

/** Env var names the specs read, set by globalSetup. */
export const stackEnv = {
  baseUrl: 'TIDEWATER_E2E_URL',
  /** The BFF of the stack on the real default timings (realTimingsStack.ts). */
  realBaseUrl: 'TIDEWATER_E2E_REAL_URL',
  controlUrl: 'TIDEWATER_E2E_CONTROL_URL',
  /** The suite's database (postgres://…), for specs that hold a row lock or read what a key wrote. */
  databaseUrl: 'TIDEWATER_E2E_DATABASE_URL',
} as const;
