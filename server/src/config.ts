/**
 * The one table of every default the server runs on, with its reason, and the timeout
 * chain that ties them together (adr/0004-timeout-chain.md).
 * The chain's numbers, the BFF's and the SPA's among them, and its links are written once
 * in the contract workspace (contract/src/timeoutChain.ts); this table takes them from there.
 *
 * Every value can be overridden by the environment variable named beside it. Tests run
 * the whole chain scaled down through the same variables; they import this table rather
 * than repeating numbers.
 */
import { availableParallelism } from 'node:os';
import { envNumber, resolveSettings } from '@tidewater/contract/settings';
import { resolveChain, retryAfterSecondsOf, timeoutChain as chain, timeoutChainViolations as chainViolations, type ChainName, type ChainValues } from '@tidewater/contract/timeoutChain';

/** The defaults, innermost first. Milliseconds unless the name says otherwise. */
export const defaults = {
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
  /** REQUEST_DEADLINE_MS (timeout chain): above the statement timeout; deadline + release + look + cancel < the BFF's upstream timeout. */
  requestDeadlineMs: chain.requestDeadlineMs.defaultMs,
  /** The time a cancelled statement may take to be acknowledged (timeout chain, not configurable). */
  cancelAcknowledgeMs: chain.cancelAcknowledgeMs.defaultMs,
  /** IDEMPOTENCY_STORE_BUDGET_MS (timeout chain): the look for a lost COMMIT's own row after the deadline (one read); the answer commits with the money (adr/0016), the name is kept for the env var. */
  idempotencyStoreBudgetMs: chain.idempotencyStoreBudgetMs.defaultMs,
  /** IDEMPOTENCY_RELEASE_BUDGET_MS (timeout chain): releasing a claim after a failure writes one row. */
  idempotencyReleaseBudgetMs: chain.idempotencyReleaseBudgetMs.defaultMs,
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
   * workers (at least one each); the rest wait in line holding no connection (adr/0024). One holds the row lock, one waits at it ready.
   */
  accountSendsAtOnce: 2,
  /** 1 s (ACCOUNT_LOCK_WAIT_MS): one attempt's wait for an account's row lock (`lock_timeout`); 8 × 1 s fits the deadline. */
  accountLockWaitMs: 1_000,
  /** BFF_UPSTREAM_TIMEOUT_MS (timeout chain): above the API's worst answer; the BFF answers its own 503 then. */
  bffUpstreamTimeoutMs: chain.bffUpstreamTimeoutMs.defaultMs,
  /** SPA_ABORT_MS (timeout chain): the SPA aborts every request then; the BFF serves it to the SPA. */
  spaAbortMs: chain.spaAbortMs.defaultMs,
  /** 5 s (READ_YOUR_WRITES_MS): a user's reads go to the primary this long after they wrote. */
  readYourWritesMs: 5_000,
  /** memory (READ_YOUR_WRITES_STORE): where those marks live; `database` shares them between API processes. */
  readYourWritesStore: 'memory',
  /** 15 min (ACCESS_TOKEN_TTL_SECONDS): bearer token lifetime; the BFF renews before it ends. */
  accessTokenTtlSeconds: 900,
  /** 10,000 (ACCESS_TOKEN_CACHE_ENTRIES): verified tokens remembered until their expiry, per process (adr/0016); 0 verifies every time. ~1 MB. */
  accessTokenCacheEntries: 10_000,
  /** 30 days (REFRESH_TOKEN_TTL_SECONDS): a rotating refresh token's lifetime. */
  refreshTokenTtlSeconds: 30 * 24 * 3600,
  /** 5 min (STEP_UP_TTL_SECONDS): a step-up authorisation's lifetime (single use); long enough to confirm one send, short enough that a stolen one is soon useless. */
  stepUpTtlSeconds: 300,
  /** 10 (SIGN_IN_FAILURE_LIMIT): failed sign-ins per email from one address per window before 429; a real customer rarely mistypes ten times, and a stranger locks only their own address out. */
  signInFailureLimit: 10,
  /** 30 (SIGN_IN_ADDRESS_LIMIT): failed sign-ins from one address, whatever the email, per window: password spraying from one place stops there. */
  signInAddressLimit: 30,
  /** 10 (SIGN_IN_EMAIL_LIMIT): failures of one email from all addresses per window before each further try waits 2, 4, 8 … s after the last failure (at most SIGN_IN_DELAY_CAP_MS): a growing delay, never a lock a stranger can set. */
  signInEmailLimit: 10,
  /** 60 s (SIGN_IN_DELAY_CAP_MS): the longest of those waits; a guesser gets at most one try a minute per email, the owner waits a minute at worst. */
  signInDelayCapMs: 60_000,
  /** 1,000 (SIGN_IN_GLOBAL_LIMIT): failures of all emails per window before any address that already failed is refused: spraying from many addresses gets one failure each. */
  signInGlobalLimit: 1_000,
  /** 15 min (SIGN_IN_WINDOW_MS): the window the failures count in. */
  signInWindowMs: 900_000,
  /** 90 days (KNOWN_DEVICE_TTL_SECONDS): a device token lives this long after its last sign-in (adr/0043); a customer signs in more often than once a quarter, and a token found on a discarded device dies within one. */
  knownDeviceTtlSeconds: 90 * 24 * 3600,
  /** 20 (KNOWN_DEVICES_PER_CUSTOMER): the devices kept per customer, the least recently used dropped first: a client that never keeps its token cannot grow the table without bound. */
  knownDevicesPerCustomer: 20,
  /** 20 (REGISTER_ADDRESS_LIMIT): sign-ups tried from one address per REGISTER_WINDOW_MS, whatever their answer (a taken email too), before 429: a flood from one place meets 429 before it hashes, and a taken email cannot be probed faster (adr/0045). */
  registerAddressLimit: 20,
  /** 60 (REGISTER_GLOBAL_LIMIT): sign-ups tried from all addresses per REGISTER_WINDOW_MS before 429: two hashes a second at most (about a quarter of what 2 cores hash), so sign-in and step-up keep their turns. */
  registerGlobalLimit: 60,
  /** 60 s (REGISTER_WINDOW_MS): the window sign-up attempts count in. */
  registerWindowMs: 60_000,
  /** 30 (PAYEE_LOOKUP_LIMIT): handles one customer may look up per PAYEE_LOOKUP_WINDOW_MS before 429: plenty to confirm payees, too few to list who banks here (adr/0046). */
  payeeLookupLimit: 30,
  /** 60 s (PAYEE_LOOKUP_WINDOW_MS): the window payee look-ups count in. */
  payeeLookupWindowMs: 60_000,
  /** 2 (HASHING_CONCURRENCY): password hashes (scrypt, ~0.27 s and 32 MiB each; sign-in and sign-up, never a PIN: adr/0053) run at once; more only slows every one of them on 2 cores. */
  hashingConcurrency: 2,
  /** 8 (HASHING_QUEUE): hashes that may wait their turn; beyond it 503 with a 1 s wait, so 48 sign-ins at once cannot make a real one wait seconds. */
  hashingQueue: 8,
  /** 5 (PIN_MAX_ATTEMPTS): PIN checks that may fail in a row before the PIN locks; a 4-digit PIN then gives a guesser 5 in 10,000 per lock. */
  pinMaxAttempts: 5,
  /** 15 min (PIN_LOCK_SECONDS): how long the first lock of a streak lasts; each further one lasts twice the one before (adr/0047). */
  pinLockSeconds: 900,
  /** 3 (PIN_LOCKS_BEFORE_BLOCK): the lock of a streak that blocks step-up until a password sign-in: 15 guesses per sign-in, not about 480 a day (adr/0047, PSD2 RTS Art. 4). */
  pinLocksBeforeBlock: 3,
  /** 1 day (PIN_LOCK_MEMORY_SECONDS): a streak whose last lock ended this long ago is forgotten; also the longest one lock lasts. */
  pinLockMemorySeconds: 86_400,
  /** 1,000,000 minor units = 10,000.00 EUR (DAILY_SEND_LIMIT_MINOR): the money that may leave a customer per UTC day (withdrawals, transfers to others, external transfers), across all their accounts; bounds what a stolen session plus PIN can take (adr/0045). */
  dailySendLimitMinor: 1_000_000,
  /** 20 (MAX_OPEN_ACCOUNTS_PER_CUSTOMER): open accounts a customer may hold; one more is 422 ACCOUNT_LIMIT_REACHED, so no script opens rows without end (adr/0041). */
  maxOpenAccountsPerCustomer: 20,
  /** 100 kB (BODY_LIMIT_BYTES): every request body of this API is small; larger is 413. */
  bodyLimitBytes: 100_000,
  /** 8081 (API_PORT). */
  apiPort: 8081,
  /** 127.0.0.1 (API_HOST): the API is reached through the BFF; containers set 0.0.0.0. */
  apiHost: '127.0.0.1',
  /** 127.0.0.1 (API_METRICS_HOST): `/metrics` is for the operator's Prometheus beside the API, never the public (adr/0017). */
  apiMetricsHost: '127.0.0.1',
  /** 9464 (API_METRICS_PORT): `/metrics` on a port of its own, never the API's; 0 switches it off. */
  apiMetricsPort: 9464,
  /** loopback (API_TRUST_PROXY): whose X-Forwarded-For names the client (Express's `trust proxy`): the BFF beside it; a container sets the BFF's network. */
  apiTrustProxy: 'loopback',
  /** ./.data (DATA_DIR): the embedded database's directory when DATABASE_URL is unset. */
  dataDir: './.data',
  /** 4 (DB_CONNECTION_ATTEMPTS): attempts to fetch the connection string from a connection service. */
  dbConnectionAttempts: 4,
  /** 2 s, 3 s, 5 s (DB_CONNECTION_BACKOFF_MS): waits between those attempts; at least attempts − 1 of them. */
  dbConnectionBackoffMs: [2_000, 3_000, 5_000] as readonly number[],
  /** 5 s (DB_CONNECTION_ATTEMPT_TIMEOUT_MS): one attempt at the connection service. */
  dbConnectionAttemptTimeoutMs: 5_000,
  /**
   * 0 = the number of cores, `os.availableParallelism()` (API_WORKERS): API processes under one
   * primary (node:cluster, serveApi.ts; adr/0016). Always 1 on the embedded PGlite (one process owns its files).
   */
  apiWorkers: 0,
} as const;

/** The resolved configuration: the defaults with the environment's overrides applied. */
export type Config = {
  readonly [K in keyof typeof defaults]: (typeof defaults)[K] extends readonly number[]
    ? readonly number[]
    : (typeof defaults)[K] extends number
      ? number
      : string;
};

/** The resolved configuration plus the values that have no default. */
export interface ServerConfig extends Config {
  /** Retry-After of every outage 503: the back-off cap in whole seconds (contract's `retryAfterSecondsOf`), not a setting of its own. */
  retryAfterSeconds: number;
  databaseUrl: string | undefined;
  databaseReplicaUrl: string | undefined;
  replicaFallbackToPrimary: boolean;
  /**
   * API_SANDBOX=true: money sends take the `Tidewater-Simulate` header (sandbox/, adr/0044).
   * Off by default, and refused with NODE_ENV=production: a bank that fails on request is no bank.
   */
  apiSandbox: boolean;
  /**
   * JWT_SECRET: signs access tokens (and cursors). No default: the API refuses a server
   * database without it; on the embedded default one is made once and kept beside the
   * data (signingSecret.ts). CLIs that sign nothing (audit:verify) do not need it.
   */
  jwtSecret: string | undefined;
  /**
   * PIN_PEPPER: the key of the PIN verifiers, `keyId:secret` entries (pinPepper.ts, adr/0053).
   * No default: required with a server database; on the embedded default made once and kept
   * beside the data.
   */
  pinPepper: string | undefined;
  dbConnectionApiUrl: string | undefined;
  dbConnectionName: string | undefined;
  dbConnectionApiToken: string | undefined;
  logLevel: string;
}

const envNames: { [K in keyof typeof defaults]?: string } = {
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
  requestDeadlineMs: chain.requestDeadlineMs.env,
  idempotencyStoreBudgetMs: chain.idempotencyStoreBudgetMs.env,
  idempotencyReleaseBudgetMs: chain.idempotencyReleaseBudgetMs.env,
  idempotencyStaleAfterMs: chain.idempotencyStaleAfterMs.env,
  accountWriteAttempts: 'ACCOUNT_WRITE_ATTEMPTS',
  accountLockWaitMs: 'ACCOUNT_LOCK_WAIT_MS',
  accountSendsAtOnce: 'ACCOUNT_SENDS_AT_ONCE',
  bffUpstreamTimeoutMs: chain.bffUpstreamTimeoutMs.env,
  spaAbortMs: chain.spaAbortMs.env,
  readYourWritesMs: 'READ_YOUR_WRITES_MS',
  readYourWritesStore: 'READ_YOUR_WRITES_STORE',
  accessTokenTtlSeconds: 'ACCESS_TOKEN_TTL_SECONDS',
  accessTokenCacheEntries: 'ACCESS_TOKEN_CACHE_ENTRIES',
  refreshTokenTtlSeconds: 'REFRESH_TOKEN_TTL_SECONDS',
  stepUpTtlSeconds: 'STEP_UP_TTL_SECONDS',
  pinMaxAttempts: 'PIN_MAX_ATTEMPTS',
  signInFailureLimit: 'SIGN_IN_FAILURE_LIMIT',
  signInAddressLimit: 'SIGN_IN_ADDRESS_LIMIT',
  signInEmailLimit: 'SIGN_IN_EMAIL_LIMIT',
  signInDelayCapMs: 'SIGN_IN_DELAY_CAP_MS',
  signInGlobalLimit: 'SIGN_IN_GLOBAL_LIMIT',
  signInWindowMs: 'SIGN_IN_WINDOW_MS',
  knownDeviceTtlSeconds: 'KNOWN_DEVICE_TTL_SECONDS',
  knownDevicesPerCustomer: 'KNOWN_DEVICES_PER_CUSTOMER',
  registerAddressLimit: 'REGISTER_ADDRESS_LIMIT',
  registerGlobalLimit: 'REGISTER_GLOBAL_LIMIT',
  registerWindowMs: 'REGISTER_WINDOW_MS',
  payeeLookupLimit: 'PAYEE_LOOKUP_LIMIT',
  payeeLookupWindowMs: 'PAYEE_LOOKUP_WINDOW_MS',
  hashingConcurrency: 'HASHING_CONCURRENCY',
  hashingQueue: 'HASHING_QUEUE',
  pinLockSeconds: 'PIN_LOCK_SECONDS',
  pinLocksBeforeBlock: 'PIN_LOCKS_BEFORE_BLOCK',
  pinLockMemorySeconds: 'PIN_LOCK_MEMORY_SECONDS',
  dailySendLimitMinor: 'DAILY_SEND_LIMIT_MINOR',
  maxOpenAccountsPerCustomer: 'MAX_OPEN_ACCOUNTS_PER_CUSTOMER',
  bodyLimitBytes: 'BODY_LIMIT_BYTES',
  apiPort: 'API_PORT',
  apiHost: 'API_HOST',
  apiMetricsHost: 'API_METRICS_HOST',
  apiMetricsPort: 'API_METRICS_PORT',
  apiTrustProxy: 'API_TRUST_PROXY',
  dataDir: 'DATA_DIR',
  dbConnectionAttempts: 'DB_CONNECTION_ATTEMPTS',
  dbConnectionBackoffMs: 'DB_CONNECTION_BACKOFF_MS',
  dbConnectionAttemptTimeoutMs: 'DB_CONNECTION_ATTEMPT_TIMEOUT_MS',
  apiWorkers: 'API_WORKERS',
};

/**
 * Numbers that 0 would switch off (pg and PostgreSQL read a 0 timeout as "no limit", so a
 * 0 would pass the chain check while nothing bounded the wait any more) or jam (no hash could run).
 */
const mustBePositive: Array<keyof typeof defaults> = [
  'dbConnectTimeoutMs',
  'dbCommitTimeoutMs',
  'dbStatementTimeoutMs',
  'dbRetryMaxDelayMs',
  'dbPoolMax',
  'dbPoolWaitMs',
  'dbReadinessProbeMs',
  'requestDeadlineMs',
  'idempotencyStoreBudgetMs',
  'idempotencyReleaseBudgetMs',
  'hashingConcurrency',
  'accountSendsAtOnce',
  'accountWriteAttempts',
  'accountLockWaitMs',
  'pinLocksBeforeBlock',
  'pinLockMemorySeconds',
  'maxOpenAccountsPerCustomer',
];

/** The shortest JWT_SECRET accepted: HS256 wants a key of at least 256 bits. */
const MIN_SECRET_LENGTH = 32;

/** A configuration that cannot work; the server refuses to start with this message. */
export class ConfigError extends Error {
  override readonly name = 'ConfigError';
}

function parseValue(name: string, text: string, fallback: unknown): unknown {
  if (Array.isArray(fallback)) {
    const parts = text.split(',').map((part) => part.trim());
    if (parts.some((part) => !/^\d+(\.\d+)?$/.test(part))) {
      throw new ConfigError(`${name} must be a comma-separated list of non-negative numbers (e.g. "2000,3000,5000"), got "${text}"`);
    }
    return parts.map(Number);
  }
  return typeof fallback === 'number' ? envNumber(name, text, notANumber) : text;
}

function notANumber(name: string, text: string): never {
  throw new ConfigError(`${name} must be a non-negative number, got "${text}"`);
}

/**
 * API_WORKERS (adr/0016): 0 means one per core, and the embedded PGlite runs one. Several
 * workers share read-your-writes marks through the database (a worker that did not see the
 * write must still send the user's reads to the primary): READ_YOUR_WRITES_STORE then
 * defaults to `database`, and `memory` is refused beside a replica.
 */
function resolveWorkers(config: { -readonly [K in 'apiWorkers' | 'readYourWritesStore']: ServerConfig[K] } & ServerConfig, env: NodeJS.ProcessEnv): void {
  const embedded = !config.databaseUrl && !config.dbConnectionApiUrl;
  if (!Number.isInteger(config.apiWorkers)) throw new ConfigError(`API_WORKERS must be a whole number, got ${config.apiWorkers}`);
  if (embedded && config.apiWorkers > 1) throw new ConfigError(`API_WORKERS must be 1 on the embedded database (one process owns its files), got ${config.apiWorkers}`);
  config.apiWorkers = config.apiWorkers || (embedded ? 1 : availableParallelism());
  if (config.apiWorkers <= 1) return;
  if (!env.READ_YOUR_WRITES_STORE) config.readYourWritesStore = 'database';
  else if (config.readYourWritesStore === 'memory' && config.databaseReplicaUrl) {
    throw new ConfigError('READ_YOUR_WRITES_STORE=memory cannot serve several API_WORKERS beside a replica: a worker would not see another\'s marks; use database');
  }
}

/** API_SANDBOX: `true` or `false` (unset: false); never beside NODE_ENV=production (adr/0044). */
function sandboxOf(env: NodeJS.ProcessEnv): boolean {
  const value = env.API_SANDBOX || 'false';
  if (value !== 'true' && value !== 'false') throw new ConfigError(`API_SANDBOX must be "true" or "false", got "${value}"`);
  if (value === 'true' && env.NODE_ENV === 'production') throw new ConfigError('API_SANDBOX=true is refused with NODE_ENV=production: the sandbox makes sends fail on request');
  return value === 'true';
}

/** Resolves the table against an environment (process.env by default) and checks the chain. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): ServerConfig {
  const resolved = resolveSettings(defaults, envNames, env, parseValue);
  for (const key of mustBePositive) {
    if (!((resolved[key] as number) > 0)) throw new ConfigError(`${envNames[key]} must be above 0 (0 would switch the limit off), got ${String(resolved[key])}`);
  }
  const config = {
    ...(resolved as unknown as Config),
    databaseUrl: env.DATABASE_URL || undefined,
    databaseReplicaUrl: env.DATABASE_REPLICA_URL || undefined,
    replicaFallbackToPrimary: env.DATABASE_REPLICA_FALLBACK === '1',
    apiSandbox: sandboxOf(env),
    jwtSecret: env.JWT_SECRET || undefined,
    pinPepper: env.PIN_PEPPER || undefined,
    dbConnectionApiUrl: env.DB_CONNECTION_API_URL || undefined,
    dbConnectionName: env.DB_CONNECTION_NAME || undefined,
    dbConnectionApiToken: env.DB_CONNECTION_API_TOKEN || undefined,
    logLevel: env.LOG_LEVEL || 'info',
    retryAfterSeconds: retryAfterSecondsOf(resolved as unknown as Config),
  } satisfies ServerConfig;
  if (config.jwtSecret !== undefined && config.jwtSecret.length < MIN_SECRET_LENGTH) {
    throw new ConfigError(`JWT_SECRET must be at least ${MIN_SECRET_LENGTH} characters (256 bits of a random secret), got ${config.jwtSecret.length}`);
  }
  if (!Number.isInteger(config.accountSendsAtOnce)) throw new ConfigError(`ACCOUNT_SENDS_AT_ONCE must be a whole number, got ${config.accountSendsAtOnce}`);
  if (!['memory', 'database'].includes(config.readYourWritesStore)) {
    throw new ConfigError(`READ_YOUR_WRITES_STORE must be "memory" or "database", got "${config.readYourWritesStore}"`);
  }
  resolveWorkers(config, env);
  checkTimeoutChain(config, env);
  return config;
}

/** The longest total the retry policy can wait: each of its waits is at most its capped step. */
export function worstCaseRetryWaitMs(config: Pick<Config, 'dbMaxRetries' | 'dbRetryBaseDelayMs' | 'dbRetryMaxDelayMs'>): number {
  let total = 0;
  for (let retry = 0; retry < config.dbMaxRetries; retry++) {
    total += Math.min(config.dbRetryBaseDelayMs * 2 ** retry, config.dbRetryMaxDelayMs);
  }
  return total;
}

/** The chain's numbers this table holds. */
const chainNames = (Object.keys(chain) as ChainName[]).filter((name) => name in defaults);

/**
 * The timeout chain, each link with the reason it must hold: the contract's links over
 * all three tiers (this table's numbers; the BFF's others from `env`, else their
 * defaults), then the API's own three. Returns the broken links (empty when the chain
 * holds); `checkTimeoutChain` throws on any.
 */
export function timeoutChainViolations(config: Config, env: NodeJS.ProcessEnv = {}): string[] {
  const values: ChainValues = {
    ...resolveChain(env, notANumber),
    ...Object.fromEntries(chainNames.map((name) => [name, config[name as keyof Config] as number])),
  };
  const links: Array<[boolean, string]> = [
    [worstCaseRetryWaitMs(config) < config.requestDeadlineMs,
      `worst-case retry waits (${worstCaseRetryWaitMs(config)} ms) must fit in the request deadline (${config.requestDeadlineMs} ms)`],
    [config.accountWriteAttempts * config.accountLockWaitMs <= config.requestDeadlineMs,
      `a send's lock waits (${config.accountWriteAttempts} attempts × ${config.accountLockWaitMs} ms) must fit in the request deadline (${config.requestDeadlineMs} ms), so a busy account is answered busy, not cut off`],
    [config.dbConnectionBackoffMs.length >= config.dbConnectionAttempts - 1,
      `DB_CONNECTION_BACKOFF_MS has ${config.dbConnectionBackoffMs.length} waits but ${config.dbConnectionAttempts} attempts need ${config.dbConnectionAttempts - 1}`],
  ];
  return [...chainViolations(values), ...links.filter(([holds]) => !holds).map(([, reason]) => reason)];
}

/** Throws a ConfigError naming every broken link of the timeout chain. */
function checkTimeoutChain(config: Config, env: NodeJS.ProcessEnv = {}): void {
  const broken = timeoutChainViolations(config, env);
  if (broken.length > 0) throw new ConfigError(`the timeout chain is broken:\n  - ${broken.join('\n  - ')}`);
}
