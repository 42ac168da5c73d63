/**
 * The one table of every default the server runs on, with its reason (its families in
 * config/), and the timeout chain that ties them together (adr/0004-timeout-chain.md).
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
import { databaseDefaults, databaseEnvNames } from './config/database.ts';
import { requestsDefaults, requestsEnvNames } from './config/requests.ts';
import { identityDefaults, identityEnvNames } from './config/identity.ts';
import { processDefaults, processEnvNames } from './config/process.ts';

/**
 * The defaults, by family (config/): the database's, a request's and its chain's, identity's,
 * the process's. Milliseconds unless the name says otherwise; each with its reason and its
 * environment variable in its family's file.
 */
export const defaults = { ...databaseDefaults, ...requestsDefaults, ...identityDefaults, ...processDefaults } as const;

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
  /**
   * DATABASE_READ_ONLY_URL: the login of the primary's read-only pool; default DATABASE_URL.
   * With DB_SESSION_SETTINGS=role it names a role whose sessions are read-only
   * (ALTER ROLE … SET default_transaction_read_only = on), else the start check refuses.
   */
  databaseReadOnlyUrl: string | undefined;
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

const envNames: { [K in keyof typeof defaults]?: string } = { ...databaseEnvNames, ...requestsEnvNames, ...identityEnvNames, ...processEnvNames };

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

/** Throws a ConfigError unless `value` is one of `allowed`. */
function oneOf(name: string, value: string, allowed: readonly string[]): void {
  if (!allowed.includes(value)) throw new ConfigError(`${name} must be ${allowed.map((one) => `"${one}"`).join(' or ')}, got "${value}"`);
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
    databaseReadOnlyUrl: env.DATABASE_READ_ONLY_URL || undefined,
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
  oneOf('READ_YOUR_WRITES_STORE', config.readYourWritesStore, ['memory', 'database']);
  oneOf('DB_PREPARED_STATEMENTS', config.dbPreparedStatements, ['named', 'unnamed']);
  oneOf('DB_SESSION_SETTINGS', config.dbSessionSettings, ['startup', 'role']);
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
