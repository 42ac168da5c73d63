/**
 * The BFF's one table of defaults, each with its value and its reason (adr/0004-timeout-chain.md). The numbers of the timeout chain,
 * the SPA's that the BFF serves among them, are written once in the contract workspace
 * (contract/src/timeoutChain.ts) with their variables; this table takes them from there.
 * Every value can be overridden by the environment variable named beside it; tests run the
 * BFF scaled down through the same variables. The chain's links among the BFF's and the
 * SPA's numbers are checked at start, and the BFF refuses to start when one breaks.
 */
import { randomBytes } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { envNumber, resolveSettings } from '@tidewater/contract/settings';
import { bffAnswerBudgetMs, chainDefaults, resolveChain, retryAfterSecondsOf, timeoutChain as chain, timeoutChainViolations } from '@tidewater/contract/timeoutChain';
import { parseTokenKey, processTokenKeys, type TokenKeyRing } from './session/sealedTokens.ts';

const repoRoot = fileURLToPath(new URL('../../', import.meta.url));

/** The defaults. Milliseconds unless the name says otherwise. */
export const defaults = {
  /** 8080 (BFF_PORT): the one port visitors reach. */
  port: 8080,
  /** 127.0.0.1 (BFF_HOST): local by default, like the API; containers set 0.0.0.0. */
  host: '127.0.0.1',
  /** 127.0.0.1 (BFF_METRICS_HOST): `/metrics` is for the operator's Prometheus, never the public (adr/0017). */
  metricsHost: '127.0.0.1',
  /** 9465 (BFF_METRICS_PORT): `/metrics` on a port of its own, never the public one; 0 switches it off. */
  metricsPort: 9465,
  /** http://127.0.0.1:8081 (API_URL): the API, on its default port. */
  apiUrl: 'http://127.0.0.1:8081',
  /**
   * BFF_UPSTREAM_TIMEOUT_MS (timeout chain): above the API's worst answer (deadline +
   * release + look + cancel), so every answer the API gives reaches the visitor; after it
   * the BFF answers its own 503, without `applied` (only the API knows).
   */
  upstreamTimeoutMs: chain.bffUpstreamTimeoutMs.defaultMs,
  /**
   * BFF_RENEWAL_TIMEOUT_MS (timeout chain): the refresh call's own budget. The API's
   * refresh has no request deadline (a rotation must not be half-undone by a hang-up), so
   * it gets long enough to finish on a slow database: a rotated pair that arrives late is
   * still kept.
   */
  renewalTimeoutMs: chain.bffRenewalTimeoutMs.defaultMs,
  /**
   * BFF_RENEWAL_WAIT_MS (timeout chain): how long a visitor's request waits for a renewal
   * before the BFF answers 503 (the renewal itself runs on to its own budget and is kept).
   * It plus the upstream timeout is the BFF's worst answer, below the SPA's abort.
   */
  renewalWaitMs: chain.bffRenewalWaitMs.defaultMs,
  /** 60 s (BFF_RENEW_AHEAD_MS): an access token that expires within this is renewed first. */
  renewAheadMs: 60_000,
  /**
   * BFF_RENEWAL_REUSE_MS (timeout chain): a request that still presents a refresh token this
   * process has just rotated gets the rotation's result instead of presenting the spent
   * token (the API treats a spent token as stolen and ends the whole family).
   */
  renewalReuseMs: chain.bffRenewalReuseMs.defaultMs,
  /** 5 s (BFF_REVOKE_TIMEOUT_MS): sign-out's revoke writes one row; a late answer loses nothing. */
  revokeTimeoutMs: 5_000,
  /** BFF_ME_TIMEOUT_MS (timeout chain): sign-in's read of the profile; reads one row. */
  meTimeoutMs: chain.bffMeTimeoutMs.defaultMs,
  /**
   * BFF_SESSION_STORE_TIMEOUT_MS (timeout chain): the session poll of adr/0008: each
   * session-store round trip (connect and query); a hung store then answers 503 rather
   * than hanging.
   */
  sessionStoreTimeoutMs: chain.bffSessionStoreTimeoutMs.defaultMs,
  /** 3 s (BFF_HEALTH_PROBE_TIMEOUT_MS): the readiness probe of the API (and the session store). */
  healthProbeTimeoutMs: 3_000,
  /** 15 min (SESSION_IDLE_TIMEOUT_MS): a signed-in session ends after this long without activity. */
  sessionIdleTimeoutMs: 15 * 60_000,
  /**
   * 30 min (BFF_SESSION_RETENTION_MS): how long the store keeps a session after its last
   * save, and the cookie's lifetime. Longer than the inactivity timeout, so a visitor who
   * comes back after it is told the session ended and its refresh token is revoked;
   * after it the row is pruned.
   */
  sessionRetentionMs: 30 * 60_000,
  /**
   * 60 s (BFF_SESSION_PRUNE_MS): how often the PostgreSQL store deletes the sessions past
   * their retention, revoking the refresh token each held at the API (adr/0045), so a row
   * that simply lapsed leaves no live token behind.
   */
  sessionPruneMs: 60_000,
  /** SPA_ABORT_MS (timeout chain): the SPA's abort, served to it in index.html; the BFF's worst answer must come before it. */
  spaAbortMs: chain.spaAbortMs.defaultMs,
  /** SPA_READ_BUDGET_MS (timeout chain): a read and its one retry in the SPA; served to it in index.html. */
  spaReadBudgetMs: chain.spaReadBudgetMs.defaultMs,
  /** SPA_SESSION_CHECK_MS (timeout chain): the SPA's session check at start-up; served to it in index.html. */
  spaSessionCheckMs: chain.spaSessionCheckMs.defaultMs,
  /** 100 kB (BFF_BODY_LIMIT_BYTES): the BFF's own JSON bodies (sign-in, sign-up) are small. */
  bodyLimitBytes: 100_000,
  /**
   * auto (COOKIE_SECURE: auto | true | false): the cookies are `Secure` and named `__Host-…`
   * (no other host, no subdomain, no plain http can set them; adr/0043). `auto` is that,
   * unless the BFF is explicitly local: it listens on loopback with no trusted proxy in
   * front, so only a browser on this machine, over http://localhost, can reach it
   * (`npm start`, the tests). `false` is plain-http cookies anywhere: a tryout only.
   */
  cookieSecure: 'auto',
  /** unset (BFF_TRUST_PROXY): Express's `trust proxy` (e.g. `1` or `loopback`) when behind a TLS proxy. */
  trustProxy: '',
  /** web-vue/dist (BFF_WEB_DIST_DIR): the built SPA. */
  webDistDir: `${repoRoot}web-vue/dist`,
  /** spec/docs/index.html (BFF_DOCS_FILE): the rendered Redocly docs. */
  docsFile: `${repoRoot}spec/docs/index.html`,
  /** info (LOG_LEVEL). */
  logLevel: 'info',
} as const;

type Widen<T> = T extends number ? number : T extends string ? string : T;

/** The resolved configuration: the defaults with the environment's overrides applied. */
export type BffConfig = { readonly [K in keyof typeof defaults]: Widen<(typeof defaults)[K]> } & {
  /** SESSION_SECRET: signs the session cookie; random per process when unset (in-memory sessions only). */
  readonly sessionSecret: string;
  /** True when SESSION_SECRET was unset and a random one was made. */
  readonly sessionSecretGenerated: boolean;
  /** BFF_SESSION_DATABASE_URL: PostgreSQL for sessions; unset means an in-memory store. */
  readonly sessionDatabaseUrl: string | undefined;
  /** The wait the BFF's own 503s name: the API's back-off cap in whole seconds (DB_RETRY_MAX_DELAY_MS, the contract's `retryAfterSecondsOf`), one number for both tiers. */
  readonly retryAfterSeconds: number;
  /**
   * BFF_TOKEN_KEY (32 bytes, base64) seals the API's tokens in the session store, and
   * BFF_TOKEN_KEY_PREVIOUS (comma-separated) still opens what older keys sealed (adr/0045);
   * random per process when unset (in-memory sessions only).
   */
  readonly tokenKeys: TokenKeyRing;
  /** True when BFF_TOKEN_KEY was unset and a random key was made. */
  readonly tokenKeysGenerated: boolean;
  /** The token-key variables that are not 32 bytes of base64, by name. */
  readonly badTokenKeys: readonly string[];
};

const envNames: { readonly [K in keyof typeof defaults]: string } = {
  port: 'BFF_PORT',
  host: 'BFF_HOST',
  metricsHost: 'BFF_METRICS_HOST',
  metricsPort: 'BFF_METRICS_PORT',
  apiUrl: 'API_URL',
  upstreamTimeoutMs: chain.bffUpstreamTimeoutMs.env,
  renewalTimeoutMs: chain.bffRenewalTimeoutMs.env,
  renewalWaitMs: chain.bffRenewalWaitMs.env,
  renewAheadMs: 'BFF_RENEW_AHEAD_MS',
  renewalReuseMs: chain.bffRenewalReuseMs.env,
  revokeTimeoutMs: 'BFF_REVOKE_TIMEOUT_MS',
  meTimeoutMs: chain.bffMeTimeoutMs.env,
  sessionStoreTimeoutMs: chain.bffSessionStoreTimeoutMs.env,
  healthProbeTimeoutMs: 'BFF_HEALTH_PROBE_TIMEOUT_MS',
  sessionIdleTimeoutMs: 'SESSION_IDLE_TIMEOUT_MS',
  sessionRetentionMs: 'BFF_SESSION_RETENTION_MS',
  sessionPruneMs: 'BFF_SESSION_PRUNE_MS',
  spaAbortMs: chain.spaAbortMs.env,
  spaReadBudgetMs: chain.spaReadBudgetMs.env,
  spaSessionCheckMs: chain.spaSessionCheckMs.env,
  bodyLimitBytes: 'BFF_BODY_LIMIT_BYTES',
  cookieSecure: 'COOKIE_SECURE',
  trustProxy: 'BFF_TRUST_PROXY',
  webDistDir: 'BFF_WEB_DIST_DIR',
  docsFile: 'BFF_DOCS_FILE',
  logLevel: 'LOG_LEVEL',
};

/** A configuration that cannot work; the BFF refuses to start with this message. */
export class BffConfigError extends Error {
  override readonly name = 'BffConfigError';
}

function notANumber(name: string, text: string): never {
  throw new BffConfigError(`${name} must be a non-negative number, got "${text}"`);
}

/** Resolves the table against an environment (process.env by default) and checks it. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): BffConfig {
  const resolved = resolveSettings(defaults, envNames, env, (name, text, fallback) =>
    typeof fallback === 'number' ? envNumber(name, text, notANumber) : text,
  );
  const sessionSecret = env.SESSION_SECRET || undefined;
  const tokenKey = env.BFF_TOKEN_KEY ? parseTokenKey(env.BFF_TOKEN_KEY) : undefined;
  const previousTexts = (env.BFF_TOKEN_KEY_PREVIOUS ?? '').split(',').filter((text) => text.trim() !== '');
  const previousKeys = previousTexts.map(parseTokenKey).filter((key): key is Buffer => key !== undefined);
  const badTokenKeys = [
    ...(env.BFF_TOKEN_KEY && !tokenKey ? ['BFF_TOKEN_KEY'] : []),
    ...(previousKeys.length < previousTexts.length ? ['BFF_TOKEN_KEY_PREVIOUS'] : []),
  ];
  const config: BffConfig = {
    ...(resolved as { [K in keyof typeof defaults]: Widen<(typeof defaults)[K]> }),
    apiUrl: String(resolved.apiUrl).replace(/\/+$/, ''),
    sessionSecret: sessionSecret ?? randomBytes(32).toString('base64url'),
    sessionSecretGenerated: sessionSecret === undefined,
    sessionDatabaseUrl: env.BFF_SESSION_DATABASE_URL || undefined,
    retryAfterSeconds: retryAfterSecondsOf(resolveChain(env, notANumber)),
    tokenKeys: tokenKey ? { current: tokenKey, previous: previousKeys } : processTokenKeys(),
    tokenKeysGenerated: tokenKey === undefined,
    badTokenKeys,
  };
  const broken = configViolations(config, env);
  if (broken.length > 0)
    throw new BffConfigError(`the BFF's configuration cannot work:\n  - ${broken.join('\n  - ')}`);
  return config;
}

/**
 * The longest any BFF answer takes: one upstream wait plus the longest wait before or
 * after it (a renewal's share, or sign-in's profile read); contract/src/timeoutChain.ts.
 * Sign-up and sign-in spend their calls inside it.
 */
export function answerBudgetMs(
  config: Pick<BffConfig, 'upstreamTimeoutMs' | 'renewalWaitMs' | 'meTimeoutMs'>,
): number {
  return bffAnswerBudgetMs({
    bffUpstreamTimeoutMs: config.upstreamTimeoutMs,
    bffRenewalWaitMs: config.renewalWaitMs,
    bffMeTimeoutMs: config.meTimeoutMs,
  });
}

/** The BFF's and the SPA's numbers of the timeout chain, by their names in the contract's table. */
function chainValuesOf(config: BffConfig) {
  return {
    bffUpstreamTimeoutMs: config.upstreamTimeoutMs,
    bffRenewalTimeoutMs: config.renewalTimeoutMs,
    bffRenewalWaitMs: config.renewalWaitMs,
    bffRenewalReuseMs: config.renewalReuseMs,
    bffMeTimeoutMs: config.meTimeoutMs,
    bffSessionStoreTimeoutMs: config.sessionStoreTimeoutMs,
    spaAbortMs: config.spaAbortMs,
    spaReadBudgetMs: config.spaReadBudgetMs,
    spaSessionCheckMs: config.spaSessionCheckMs,
  };
}

/**
 * The rules the configuration must keep, each with its reason; empty when all hold. The
 * timeout chain's links among the BFF's and the SPA's numbers come first (the contract's;
 * the API checks its own numbers against the BFF's where it starts).
 */
export function configViolations(config: BffConfig, env: NodeJS.ProcessEnv = {}): string[] {
  const values = { ...chainDefaults, ...chainValuesOf(config) };
  const links: Array<[boolean, string]> = [
    [config.sessionIdleTimeoutMs > 0, 'SESSION_IDLE_TIMEOUT_MS must be above 0'],
    [
      config.sessionRetentionMs > config.sessionIdleTimeoutMs,
      `BFF_SESSION_RETENTION_MS (${config.sessionRetentionMs}) must exceed SESSION_IDLE_TIMEOUT_MS (${config.sessionIdleTimeoutMs}), so an ended session is still found, and its refresh token revoked`,
    ],
    [
      ['auto', 'true', 'false'].includes(config.cookieSecure),
      `COOKIE_SECURE must be auto, true or false, got "${config.cookieSecure}"`,
    ],
    [
      /^https?:\/\/[^/]+$/.test(config.apiUrl),
      `API_URL must be an http(s) origin without a path, got "${config.apiUrl}"`,
    ],
    [
      config.sessionDatabaseUrl === undefined || !config.sessionSecretGenerated,
      'SESSION_SECRET is required with BFF_SESSION_DATABASE_URL: sessions outlive this process and other replicas must read their cookies',
    ],
    [
      config.badTokenKeys.length === 0,
      `${config.badTokenKeys.join(' and ')} must be 32 random bytes in base64 (openssl rand -base64 32)`,
    ],
    [
      config.sessionDatabaseUrl === undefined || !config.tokenKeysGenerated,
      'BFF_TOKEN_KEY is required with BFF_SESSION_DATABASE_URL: the API\'s tokens are kept in the session table only sealed under it (openssl rand -base64 32)',
    ],
    [
      config.sessionDatabaseUrl !== undefined || (env.NODE_ENV !== 'production' && !env.DATABASE_URL),
      'BFF_SESSION_DATABASE_URL is required outside the embedded default (NODE_ENV=production or DATABASE_URL set): in-memory sessions die with the process and are not shared by replicas',
    ],
  ];
  return [
    ...timeoutChainViolations(values, ['bff', 'spa']),
    ...links.filter(([holds]) => !holds).map(([, reason]) => reason),
  ];
}
