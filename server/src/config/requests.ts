/**
 * One family of the server's table (config.ts): each default with its reason and its environment variable.
 */
import { timeoutChain as chain } from '@tidewater/contract/timeoutChain';

/** A request's deadline and what the timeout chain bounds around it: the idempotency budgets, a busy account, the BFF and the SPA (adr/0004, adr/0042). */
export const requestsDefaults = {
  /** REQUEST_DEADLINE_MS (timeout chain): above the statement timeout; deadline + release + look + cancel < the BFF's upstream timeout. */
  requestDeadlineMs: chain.requestDeadlineMs.defaultMs,
  /** The time a cancelled statement may take to be acknowledged (timeout chain, not configurable). */
  cancelAcknowledgeMs: chain.cancelAcknowledgeMs.defaultMs,
  /** IDEMPOTENCY_STORE_BUDGET_MS (timeout chain): the look for a lost COMMIT's own row after the deadline (one read); the answer commits with the money (adr/0016), the name is kept for the env var. */
  idempotencyStoreBudgetMs: chain.idempotencyStoreBudgetMs.defaultMs,
  /** IDEMPOTENCY_RELEASE_BUDGET_MS (timeout chain): releasing a claim after a failure writes one row. */
  idempotencyReleaseBudgetMs: chain.idempotencyReleaseBudgetMs.defaultMs,
  /** A money send queued in the account bulkhead leaves the queue this long before its deadline to claim its key (timeout chain, not configurable; adr/0076). */
  queueClaimMarginMs: chain.queueClaimMarginMs.defaultMs,
  /** IDEMPOTENCY_STALE_AFTER_MS (timeout chain): a claim whose release failed is taken over after this; ≥ deadline + 60 s. */
  idempotencyStaleAfterMs: chain.idempotencyStaleAfterMs.defaultMs,
  /**
   * 1 s: a busy account, and a key whose first request is still in flight (409 IDEMPOTENCY_IN_FLIGHT), name the least
   * whole-second wait that does not send the caller straight back.
   */
  busyRetryAfterSeconds: 1,
  /** 8 (ACCOUNT_WRITE_ATTEMPTS): attempts a write makes on a contended account before it answers busy. */
  accountWriteAttempts: 8,
  /**
   * 2 (ACCOUNT_SENDS_AT_ONCE): money sends of one API instance in a transaction on one account at once, shared out over its
   * workers (at least one each); the rest wait in the account bulkhead's queue holding no connection (adr/0024). One holds the row lock, one waits at it ready.
   */
  accountSendsAtOnce: 2,
  /** 1 s (ACCOUNT_LOCK_WAIT_MS): one attempt's wait for an account's row lock (`lock_timeout`); 8 × 1 s fits the deadline. */
  accountLockWaitMs: 1_000,
  /** BFF_UPSTREAM_TIMEOUT_MS (timeout chain): above the API's worst answer; the BFF answers its own 503 then. */
  bffUpstreamTimeoutMs: chain.bffUpstreamTimeoutMs.defaultMs,
  /** SPA_ABORT_MS (timeout chain): the SPA aborts every request then; the BFF serves it to the SPA. */
  spaAbortMs: chain.spaAbortMs.defaultMs,
} as const;

/** The environment variable of each of requestsDefaults' values. */
export const requestsEnvNames: { [K in keyof typeof requestsDefaults]?: string } = {
  requestDeadlineMs: chain.requestDeadlineMs.env,
  idempotencyStoreBudgetMs: chain.idempotencyStoreBudgetMs.env,
  idempotencyReleaseBudgetMs: chain.idempotencyReleaseBudgetMs.env,
  idempotencyStaleAfterMs: chain.idempotencyStaleAfterMs.env,
  accountWriteAttempts: 'ACCOUNT_WRITE_ATTEMPTS',
  accountSendsAtOnce: 'ACCOUNT_SENDS_AT_ONCE',
  accountLockWaitMs: 'ACCOUNT_LOCK_WAIT_MS',
  bffUpstreamTimeoutMs: chain.bffUpstreamTimeoutMs.env,
  spaAbortMs: chain.spaAbortMs.env,
};
