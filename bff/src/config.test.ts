import { describe, expect, it } from 'vitest';
import { BffConfigError, answerBudgetMs, configViolations, defaults, loadConfig } from './config.ts';

describe('the defaults', () => {
  it('are the numbers of adr/0004 and adr/0008', () => {
    expect(defaults).toMatchObject({
      port: 8080,
      apiUrl: 'http://127.0.0.1:8081',
      upstreamTimeoutMs: 55_000,
      renewalTimeoutMs: 30_000,
      revokeTimeoutMs: 5_000,
      meTimeoutMs: 5_000,
      sessionStoreTimeoutMs: 5_000,
      healthProbeTimeoutMs: 3_000,
      sessionIdleTimeoutMs: 900_000,
      sessionRetentionMs: 1_800_000,
      renewAheadMs: 60_000,
      spaAbortMs: 65_000,
    });
  });

  it('answer within 5 + 55 = 60 s, below the SPA abort of 65 s', () => {
    const config = loadConfig({});
    expect(answerBudgetMs(config)).toBe(60_000);
    expect(configViolations(config)).toEqual([]);
  });
});

describe('loadConfig', () => {
  it('takes overrides from the environment', () => {
    const config = loadConfig({
      BFF_UPSTREAM_TIMEOUT_MS: '1500',
      SESSION_IDLE_TIMEOUT_MS: '1500',
      API_URL: 'http://api:9000/',
      COOKIE_SECURE: 'true',
    });
    expect(config).toMatchObject({
      upstreamTimeoutMs: 1_500,
      sessionIdleTimeoutMs: 1_500,
      apiUrl: 'http://api:9000',
      cookieSecure: 'true',
    });
  });

  it("names the API's Retry-After in its own 503s: the back-off cap in whole seconds, one number for both tiers", () => {
    expect(loadConfig({}).retryAfterSeconds).toBe(10);
    expect(loadConfig({ DB_RETRY_MAX_DELAY_MS: '4000' }).retryAfterSeconds).toBe(4);
    expect(loadConfig({ BFF_RETRY_AFTER_SECONDS: '30' }).retryAfterSeconds).toBe(10);
  });

  it('makes a random session secret when none is given, and says so', () => {
    const [a, b] = [loadConfig({}), loadConfig({})];
    expect(a.sessionSecretGenerated).toBe(true);
    expect(a.sessionSecret).not.toBe(b.sessionSecret);
    expect(loadConfig({ SESSION_SECRET: 's3cret' })).toMatchObject({
      sessionSecret: 's3cret',
      sessionSecretGenerated: false,
    });
  });

  it.each([
    [
      'a number that is not one',
      { BFF_UPSTREAM_TIMEOUT_MS: 'soon' },
      /BFF_UPSTREAM_TIMEOUT_MS must be a non-negative number/,
    ],
    ['a chain past the SPA abort', { BFF_UPSTREAM_TIMEOUT_MS: '61000' }, /below the SPA's abort/],
    [
      'a renewal wait above its budget',
      { BFF_RENEWAL_WAIT_MS: '4000', BFF_RENEWAL_TIMEOUT_MS: '3000', BFF_RENEWAL_REUSE_MS: '3000' },
      /cannot exceed the renewal's own budget/,
    ],
    ['a reuse window shorter than a renewal', { BFF_RENEWAL_REUSE_MS: '1000' }, /must cover a whole renewal/],
    [
      'a store that forgets sessions before they time out',
      { SESSION_IDLE_TIMEOUT_MS: '3600000' },
      /must exceed SESSION_IDLE_TIMEOUT_MS/,
    ],
    [
      'a cookie setting it does not know',
      { COOKIE_SECURE: 'yes' },
      /COOKIE_SECURE must be auto, true or false/,
    ],
    ['an API URL with a path', { API_URL: 'http://api:8081/api' }, /API_URL must be an http\(s\) origin/],
    [
      'a session database without a secret',
      { BFF_SESSION_DATABASE_URL: 'postgres://x/y' },
      /SESSION_SECRET is required/,
    ],
    [
      'a session database without a token key',
      { BFF_SESSION_DATABASE_URL: 'postgres://x/y', SESSION_SECRET: 's3cret' },
      /BFF_TOKEN_KEY is required/,
    ],
    [
      'a token key that is not 32 bytes',
      { BFF_TOKEN_KEY: 'c2hvcnQ=' },
      /BFF_TOKEN_KEY must be 32 random bytes/,
    ],
    [
      'memory sessions in production',
      { NODE_ENV: 'production', SESSION_SECRET: 'x' },
      /BFF_SESSION_DATABASE_URL is required/,
    ],
    [
      'memory sessions beside a server database',
      { DATABASE_URL: 'postgres://x/y' },
      /BFF_SESSION_DATABASE_URL is required/,
    ],
  ])('refuses %s', (_name, env, message) => {
    expect(() => loadConfig(env)).toThrow(BffConfigError);
    expect(() => loadConfig(env)).toThrow(message);
  });
});
