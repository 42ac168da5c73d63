/**
 * The timeout chain, written once for the three tiers (adr/0004-timeout-chain.md;
 * adr/0004): every number of it with its default, the environment variable
 * that overrides it and what it bounds, innermost first, and the links between them.
 *
 * The API (`server/src/config.ts`) and the BFF (`bff/src/config.ts`) take their defaults
 * from this table and check the links at start-up; the SPA gets its numbers from the BFF
 * that serves it (servedTimings.ts), with these defaults when none were served. Plain
 * TypeScript with no Node import: the SPA's bundle imports it too.
 */

import { envNumber, resolveSettings, type Invalid } from './settings.ts';

/** Who waits: the API, the BFF or the SPA in the visitor's browser. */
export type Tier = 'api' | 'bff' | 'spa';

/** One number of the chain. */
export interface ChainNumber {
  readonly tier: Tier;
  /** The default, in milliseconds. */
  readonly defaultMs: number;
  /** The variable that overrides it (the BFF passes the SPA's on to the page); none = not configurable. */
  readonly env: string | undefined;
  /** What it bounds. */
  readonly bounds: string;
}

/** Every number of the chain, innermost first. */
export const timeoutChain = {
  dbStatementTimeoutMs: {
    tier: 'api',
    defaultMs: 30_000,
    env: 'DB_STATEMENT_TIMEOUT_MS',
    bounds: 'one SQL statement; a hung one ends with 57014 and is not retried (a slow query stays slow)',
  },
  dbRetryBaseDelayMs: {
    tier: 'api',
    defaultMs: 500,
    env: 'DB_RETRY_BASE_DELAY_MS',
    bounds: 'the first back-off wait after a transient failure; steps double (0.5, 1, 2, 4 s: at most 7.5 s of waiting)',
  },
  dbRetryMaxDelayMs: {
    tier: 'api',
    defaultMs: 10_000,
    env: 'DB_RETRY_MAX_DELAY_MS',
    bounds: 'one back-off wait; Retry-After on an outage, both tiers, is this in whole seconds (retryAfterSecondsOf)',
  },
  requestDeadlineMs: {
    tier: 'api',
    defaultMs: 40_000,
    env: 'REQUEST_DEADLINE_MS',
    bounds: "one request's work, above the statement timeout: 40 + 5 (COMMIT or cancel) + 3 (look) + 3 (release) = 51 s < 55 s",
  },
  dbCommitTimeoutMs: {
    tier: 'api',
    defaultMs: 5_000,
    env: 'DB_COMMIT_TIMEOUT_MS',
    bounds: 'one COMMIT or ROLLBACK round trip; a COMMIT that started before the deadline runs on up to this long (nothing cancels it)',
  },
  cancelAcknowledgeMs: {
    tier: 'api',
    defaultMs: 5_000,
    env: undefined,
    bounds: 'the time a cancelled statement may take to be acknowledged',
  },
  idempotencyStoreBudgetMs: {
    tier: 'api',
    defaultMs: 3_000,
    env: 'IDEMPOTENCY_STORE_BUDGET_MS',
    bounds: 'the look for a lost COMMIT\'s own row after the deadline (one read); the answer itself commits with the money (adr/0016)',
  },
  idempotencyReleaseBudgetMs: {
    tier: 'api',
    defaultMs: 3_000,
    env: 'IDEMPOTENCY_RELEASE_BUDGET_MS',
    bounds: 'releasing a claim after a failure (one row)',
  },
  queueClaimMarginMs: {
    tier: 'api',
    defaultMs: 500,
    env: undefined,
    bounds: "how long before its deadline a money send queued in the account bulkhead leaves the queue to claim its key alone (one short write) and answer busy with applied: false (adr/0076)",
  },
  readYourWritesMarkWaitMs: {
    tier: 'api',
    defaultMs: 1_000,
    env: 'READ_YOUR_WRITES_MARK_WAIT_MS',
    bounds: "how long a write's answer waits for its user's read-your-writes mark to commit (one row on the primary); the money has moved, so a mark that misses it is logged and counted, never a 503 (adr/0078)",
  },
  idempotencyStaleAfterMs: {
    tier: 'api',
    defaultMs: 120_000,
    env: 'IDEMPOTENCY_STALE_AFTER_MS',
    bounds: 'a claim whose release failed, taken over after this; at least the deadline + 60 s',
  },
  bffMeTimeoutMs: {
    tier: 'bff',
    defaultMs: 5_000,
    env: 'BFF_ME_TIMEOUT_MS',
    bounds: "sign-in's read of the profile after its upstream call (one row)",
  },
  bffRenewalWaitMs: {
    tier: 'bff',
    defaultMs: 5_000,
    env: 'BFF_RENEWAL_WAIT_MS',
    bounds: "a visitor's wait for a token renewal before the BFF answers 503 (the renewal runs on to its own budget)",
  },
  bffRenewalTimeoutMs: {
    tier: 'bff',
    defaultMs: 30_000,
    env: 'BFF_RENEWAL_TIMEOUT_MS',
    bounds: 'the refresh call itself; a rotated pair that arrives late is still kept',
  },
  bffRenewalReuseMs: {
    tier: 'bff',
    defaultMs: 60_000,
    env: 'BFF_RENEWAL_REUSE_MS',
    bounds: "how long a just-rotated refresh token's result is handed to requests that still present it",
  },
  bffSessionStoreTimeoutMs: {
    tier: 'bff',
    defaultMs: 5_000,
    env: 'BFF_SESSION_STORE_TIMEOUT_MS',
    bounds: 'each session-store round trip (connect and query); the SPA\'s session check waits a little longer',
  },
  bffUpstreamTimeoutMs: {
    tier: 'bff',
    defaultMs: 55_000,
    env: 'BFF_UPSTREAM_TIMEOUT_MS',
    bounds: "one call to the API, above its worst answer (51 s); after it the BFF answers its own 503, without `applied`",
  },
  spaSessionCheckMs: {
    tier: 'spa',
    defaultMs: 6_000,
    env: 'SPA_SESSION_CHECK_MS',
    bounds: "the SPA's session check at start-up; the BFF answers it from its session store within 5 s",
  },
  spaAbortMs: {
    tier: 'spa',
    defaultMs: 65_000,
    env: 'SPA_ABORT_MS',
    bounds: "every request the SPA sends; above the BFF's worst answer (5 s renewal + 55 s), so the SPA hears the BFF's 503",
  },
  spaReadBudgetMs: {
    tier: 'spa',
    defaultMs: 120_000,
    env: 'SPA_READ_BUDGET_MS',
    bounds: 'a read and its one retry, from the first attempt',
  },
} as const satisfies Record<string, ChainNumber>;

/** A number's name in the table. */
export type ChainName = keyof typeof timeoutChain;

/** The names of one tier's numbers, as a type. */
export type TierNames<T extends Tier> = { [K in ChainName]: (typeof timeoutChain)[K]['tier'] extends T ? K : never }[ChainName];

/** A value for every number of the chain (a process's resolved configuration). */
export type ChainValues = { readonly [K in ChainName]: number };

/** The names of one tier's numbers. */
export function chainNamesOf(tier: Tier): ChainName[] {
  return (Object.keys(timeoutChain) as ChainName[]).filter((name) => timeoutChain[name].tier === tier);
}

/** Every number at its default. */
export const chainDefaults: ChainValues = Object.fromEntries(
  Object.entries(timeoutChain).map(([name, entry]) => [name, entry.defaultMs]),
) as unknown as ChainValues;

/** A link of the chain: which tiers' numbers it ties, whether it holds, and why it must. */
interface ChainLink {
  readonly tiers: readonly Tier[];
  readonly holds: (v: ChainValues) => boolean;
  readonly reason: (v: ChainValues) => string;
}

/** The longest any BFF answer takes: one upstream wait plus the longest wait before or after it. */
export function bffAnswerBudgetMs(
  v: Pick<ChainValues, 'bffUpstreamTimeoutMs' | 'bffRenewalWaitMs' | 'bffMeTimeoutMs'>,
): number {
  return v.bffUpstreamTimeoutMs + Math.max(v.bffRenewalWaitMs, v.bffMeTimeoutMs);
}

/**
 * The API's longest answer: its deadline, then a COMMIT that started just before it (or a
 * statement's cancel, whichever bound is longer), the look for that commit's own row, and
 * then either releasing the claim when it did not land or, when it did, the wait for the
 * user's read-your-writes mark (never both).
 */
export function apiAnswerBudgetMs(
  v: Pick<ChainValues, 'requestDeadlineMs' | 'dbCommitTimeoutMs' | 'idempotencyReleaseBudgetMs' | 'idempotencyStoreBudgetMs' | 'cancelAcknowledgeMs' | 'readYourWritesMarkWaitMs'>,
): number {
  return v.requestDeadlineMs + Math.max(v.dbCommitTimeoutMs, v.cancelAcknowledgeMs) + v.idempotencyStoreBudgetMs + Math.max(v.idempotencyReleaseBudgetMs, v.readYourWritesMarkWaitMs);
}

/**
 * The wait every outage 503 names (Retry-After and `retryAfterSeconds`, the API's and the
 * BFF's): the back-off cap in whole seconds, so a client that comes back after it meets a
 * database the API would itself have retried by then. Derived, never set on its own.
 */
export function retryAfterSecondsOf(v: Pick<ChainValues, 'dbRetryMaxDelayMs'>): number {
  return Math.max(1, Math.ceil(v.dbRetryMaxDelayMs / 1_000));
}

/** The links, each with the reason it must hold (adr/0004's table). */
export const chainLinks: readonly ChainLink[] = [
  {
    tiers: ['api'],
    holds: (v) => v.queueClaimMarginMs < v.requestDeadlineMs,
    reason: (v) =>
      `the queue's claim margin (${v.queueClaimMarginMs} ms) must be below the request deadline (${v.requestDeadlineMs} ms), so a queued send waits at all`,
  },
  {
    tiers: ['api'],
    holds: (v) => v.dbStatementTimeoutMs < v.requestDeadlineMs,
    reason: (v) =>
      `statement timeout (${v.dbStatementTimeoutMs} ms) must be below the request deadline (${v.requestDeadlineMs} ms), so a hung statement ends before its request does`,
  },
  {
    tiers: ['api', 'bff'],
    holds: (v) => apiAnswerBudgetMs(v) < v.bffUpstreamTimeoutMs,
    reason: (v) =>
      `deadline + COMMIT or cancel + look + release or mark (${apiAnswerBudgetMs(v)} ms) must be below the BFF upstream timeout (${v.bffUpstreamTimeoutMs} ms), so every API answer reaches the visitor`,
  },
  {
    tiers: ['bff', 'spa'],
    holds: (v) => bffAnswerBudgetMs(v) < v.spaAbortMs,
    reason: (v) =>
      `BFF upstream timeout + the longest wait before it (${bffAnswerBudgetMs(v)} ms) must be below the SPA's abort (${v.spaAbortMs} ms), so the SPA hears the BFF's 503; an answer not below the SPA abort is lost`,
  },
  {
    tiers: ['api'],
    holds: (v) => v.idempotencyStaleAfterMs >= v.requestDeadlineMs + 60_000,
    reason: (v) =>
      `idempotency stale-after (${v.idempotencyStaleAfterMs} ms) must be at least the deadline + 60 s (${v.requestDeadlineMs + 60_000} ms), so no live request's claim is taken over`,
  },
  {
    tiers: ['bff'],
    holds: (v) => v.bffRenewalWaitMs <= v.bffRenewalTimeoutMs,
    reason: (v) =>
      `BFF_RENEWAL_WAIT_MS (${v.bffRenewalWaitMs}) cannot exceed the renewal's own budget BFF_RENEWAL_TIMEOUT_MS (${v.bffRenewalTimeoutMs})`,
  },
  {
    tiers: ['bff'],
    holds: (v) => v.bffRenewalReuseMs >= v.bffRenewalTimeoutMs,
    reason: (v) =>
      `BFF_RENEWAL_REUSE_MS (${v.bffRenewalReuseMs}) must cover a whole renewal (${v.bffRenewalTimeoutMs} ms), so no request that loaded the session before it presents the spent token`,
  },
];

/**
 * Every number of the chain from an environment: its variable when set, else its default.
 * `invalid` is called (and must throw) for a value that is not a non-negative number.
 */
export function resolveChain(env: Readonly<Record<string, string | undefined>>, invalid: Invalid): ChainValues {
  const envNames = Object.fromEntries(Object.entries(timeoutChain).map(([name, entry]) => [name, entry.env]));
  return resolveSettings(chainDefaults, envNames, env, (envName, text) => envNumber(envName, text, invalid)) as ChainValues;
}

/**
 * The broken links of the chain (empty when it holds). A process checks the links among
 * the tiers it reads the numbers of: the API all of them (it reads the BFF's and SPA's
 * numbers from the same variables, defaults where unset), the BFF those of the BFF and the
 * SPA it serves (the API's numbers are the API's environment's, not the BFF's).
 */
export function timeoutChainViolations(values: ChainValues, tiers: readonly Tier[] = ['api', 'bff', 'spa']): string[] {
  return chainLinks
    .filter((link) => link.tiers.every((tier) => tiers.includes(tier)))
    .filter((link) => !link.holds(values))
    .map((link) => link.reason(values));
}
