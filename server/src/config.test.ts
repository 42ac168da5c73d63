import { describe, expect, it } from 'vitest';
import { availableParallelism } from 'node:os';
import { ConfigError, defaults, loadConfig, timeoutChainViolations, worstCaseRetryWaitMs } from './config.ts';

describe('the config table', () => {
  it('holds a chain that works with every default', () => {
    const config = loadConfig({});
    expect(timeoutChainViolations(config)).toEqual([]);
    // The chain as adr/0004 states it: 30 < 40; 40 + 5 (COMMIT or cancel) + 3 (look) + 3 (release) = 51 < 55; 55 + 5 < 65; 8 × 1 ≤ 40.
    expect(config.dbStatementTimeoutMs).toBeLessThan(config.requestDeadlineMs);
    expect(config.requestDeadlineMs + Math.max(config.dbCommitTimeoutMs, config.cancelAcknowledgeMs) + 3_000 + 3_000).toBeLessThan(config.bffUpstreamTimeoutMs);
    expect(config.accountWriteAttempts * config.accountLockWaitMs).toBeLessThanOrEqual(config.requestDeadlineMs);
    expect(config.bffUpstreamTimeoutMs + 5_000).toBeLessThan(config.spaAbortMs);
    expect(config.idempotencyStaleAfterMs).toBeGreaterThanOrEqual(config.requestDeadlineMs + 60_000);
    expect(worstCaseRetryWaitMs(config)).toBe(500 + 1_000 + 2_000 + 4_000);
  });

  it('takes overrides from the environment', () => {
    const config = loadConfig({ REQUEST_DEADLINE_MS: '2000', DB_STATEMENT_TIMEOUT_MS: '1000', DB_RETRY_BASE_DELAY_MS: '50', ACCOUNT_LOCK_WAIT_MS: '200', DB_CONNECTION_BACKOFF_MS: '20, 30,50' });
    expect(config.requestDeadlineMs).toBe(2_000);
    expect(config.dbStatementTimeoutMs).toBe(1_000);
    expect(config.dbConnectionBackoffMs).toEqual([20, 30, 50]);
    expect(config.apiPort).toBe(defaults.apiPort);
  });

  // Walks each link: break it alone and the server refuses to start, naming that link.
  it.each([
    ['statement timeout at the deadline', { DB_STATEMENT_TIMEOUT_MS: '40000' }, /statement timeout .* below the request deadline/],
    ['a deadline the BFF cannot outwait', { REQUEST_DEADLINE_MS: '45000', IDEMPOTENCY_STALE_AFTER_MS: '200000' }, /below the BFF upstream timeout/],
    ['a BFF that outwaits the SPA', { BFF_UPSTREAM_TIMEOUT_MS: '61000' }, /below the SPA abort/],
    ['claims stale too soon', { IDEMPOTENCY_STALE_AFTER_MS: '90000' }, /stale-after .* at least the deadline \+ 60 s/],
    ['retries that outlast the deadline', { DB_MAX_RETRIES: '8' }, /worst-case retry waits .* fit in the request deadline/],
    ['too few connection-service waits', { DB_CONNECTION_ATTEMPTS: '5' }, /has 3 waits but 5 attempts need 4/],
    ['a COMMIT bound the BFF cannot outwait', { DB_COMMIT_TIMEOUT_MS: '12000', BFF_UPSTREAM_TIMEOUT_MS: '15000', REQUEST_DEADLINE_MS: '2000', DB_STATEMENT_TIMEOUT_MS: '1000', DB_RETRY_BASE_DELAY_MS: '50', ACCOUNT_LOCK_WAIT_MS: '200' }, /deadline \+ COMMIT or cancel \+ look \+ release or mark \(20000 ms\) must be below the BFF upstream timeout/],
    ['lock waits that outlast the deadline', { ACCOUNT_WRITE_ATTEMPTS: '8', ACCOUNT_LOCK_WAIT_MS: '6000' }, /lock waits \(8 attempts × 6000 ms\) must fit in the request deadline/],
  ])('refuses %s', (_name, env, message) => {
    expect(() => loadConfig(env)).toThrow(ConfigError);
    expect(() => loadConfig(env)).toThrow(message);
  });

  it.each([
    ['a number that is not one', { REQUEST_DEADLINE_MS: 'soon' }, /REQUEST_DEADLINE_MS must be a non-negative number/],
    ['a negative number', { DB_POOL_MAX: '-1' }, /DB_POOL_MAX must be a non-negative number/],
    ['a list with a word in it', { DB_CONNECTION_BACKOFF_MS: '2000,later' }, /DB_CONNECTION_BACKOFF_MS must be a comma-separated list/],
    ['a list with an empty entry', { DB_CONNECTION_BACKOFF_MS: '2000,,5000' }, /DB_CONNECTION_BACKOFF_MS must be a comma-separated list/],
    ['a list with a negative entry', { DB_CONNECTION_BACKOFF_MS: '2000,-1,5000' }, /DB_CONNECTION_BACKOFF_MS must be a comma-separated list/],
    ['a list with another separator', { DB_CONNECTION_BACKOFF_MS: '2000;3000;5000' }, /DB_CONNECTION_BACKOFF_MS must be a comma-separated list/],
  ])('refuses %s', (_name, env, message) => {
    expect(() => loadConfig(env)).toThrow(message);
  });

  // 0 would switch each of them off (pg and PostgreSQL read 0 as "no limit") while the chain check passed.
  it.each([
    ['a statement timeout of 0', { DB_STATEMENT_TIMEOUT_MS: '0' }, /DB_STATEMENT_TIMEOUT_MS must be above 0/],
    ['a connect timeout of 0', { DB_CONNECT_TIMEOUT_MS: '0' }, /DB_CONNECT_TIMEOUT_MS must be above 0/],
    ['a pool wait of 0', { DB_POOL_WAIT_MS: '0' }, /DB_POOL_WAIT_MS must be above 0/],
    ['a pool of 0', { DB_POOL_MAX: '0' }, /DB_POOL_MAX must be above 0/],
    ['a COMMIT bound of 0', { DB_COMMIT_TIMEOUT_MS: '0' }, /DB_COMMIT_TIMEOUT_MS must be above 0/],
    ['a back-off cap of 0', { DB_RETRY_MAX_DELAY_MS: '0' }, /DB_RETRY_MAX_DELAY_MS must be above 0/],
    ['no budget for the look', { IDEMPOTENCY_STORE_BUDGET_MS: '0' }, /IDEMPOTENCY_STORE_BUDGET_MS must be above 0/],
    ['no budget for the release', { IDEMPOTENCY_RELEASE_BUDGET_MS: '0' }, /IDEMPOTENCY_RELEASE_BUDGET_MS must be above 0/],
    ['no attempt at a lock', { ACCOUNT_WRITE_ATTEMPTS: '0' }, /ACCOUNT_WRITE_ATTEMPTS must be above 0/],
    ['a readiness probe every 0 ms', { DB_READINESS_PROBE_MS: '0' }, /DB_READINESS_PROBE_MS must be above 0/],
    ['no send at an account at once', { ACCOUNT_SENDS_AT_ONCE: '0' }, /ACCOUNT_SENDS_AT_ONCE must be above 0/],
    ['half a send at an account at once', { ACCOUNT_SENDS_AT_ONCE: '1.5' }, /ACCOUNT_SENDS_AT_ONCE must be a whole number/],
    ['a request deadline of 0', { REQUEST_DEADLINE_MS: '0', DB_STATEMENT_TIMEOUT_MS: '1', DB_MAX_RETRIES: '0' }, /REQUEST_DEADLINE_MS must be above 0/],
  ])('refuses %s: it would switch the limit off', (_name, env, message) => {
    expect(() => loadConfig(env)).toThrow(ConfigError);
    expect(() => loadConfig(env)).toThrow(message);
  });

  it('derives Retry-After from the back-off cap, in whole seconds: one number', () => {
    expect(loadConfig({}).retryAfterSeconds).toBe(10);
    expect(loadConfig({ DB_RETRY_MAX_DELAY_MS: '5000' }).retryAfterSeconds).toBe(5);
    expect(loadConfig({ DB_RETRY_MAX_DELAY_MS: '200' }).retryAfterSeconds).toBe(1);
    expect(loadConfig({ RETRY_AFTER_SECONDS: '30' }).retryAfterSeconds).toBe(10); // no second number to set
  });

  it('has no signing secret by default, and refuses a short one', () => {
    expect(loadConfig({}).jwtSecret).toBeUndefined();
    expect(() => loadConfig({ DATABASE_URL: 'postgres://db/bank', JWT_SECRET: 'short' })).toThrow(/JWT_SECRET must be at least 32 characters/);
    expect(loadConfig({ DATABASE_URL: 'postgres://db/bank', JWT_SECRET: 'x'.repeat(32) }).jwtSecret).toBe('x'.repeat(32));
  });

  it('keeps the sandbox off by default, and refuses it in production or spelled otherwise (adr/0044)', () => {
    expect(loadConfig({}).apiSandbox).toBe(false);
    expect(loadConfig({ API_SANDBOX: 'true' }).apiSandbox).toBe(true);
    expect(() => loadConfig({ API_SANDBOX: 'true', NODE_ENV: 'production' })).toThrow(/API_SANDBOX=true is refused with NODE_ENV=production/);
    expect(() => loadConfig({ API_SANDBOX: 'yes' })).toThrow(ConfigError);
  });

  it('sends startup parameters and names statements by default; behind a pooler, neither, and nothing else is taken (adr/0060)', () => {
    expect(loadConfig({})).toMatchObject({ dbSessionSettings: 'startup', dbPreparedStatements: 'named', databaseReadOnlyUrl: undefined });
    expect(loadConfig({ DB_SESSION_SETTINGS: 'role', DB_PREPARED_STATEMENTS: 'unnamed', DATABASE_READ_ONLY_URL: 'postgres://reader@pooler/tidewater' })).toMatchObject({
      dbSessionSettings: 'role',
      dbPreparedStatements: 'unnamed',
      databaseReadOnlyUrl: 'postgres://reader@pooler/tidewater',
    });
    expect(() => loadConfig({ DB_SESSION_SETTINGS: 'pgbouncer' })).toThrow('DB_SESSION_SETTINGS must be "startup" or "role", got "pgbouncer"');
    expect(() => loadConfig({ DB_PREPARED_STATEMENTS: 'none' })).toThrow('DB_PREPARED_STATEMENTS must be "named" or "unnamed", got "none"');
  });

  it('holds the scaled-down chain the tests run on', () => {
    const scaled = { REQUEST_DEADLINE_MS: '2000', DB_STATEMENT_TIMEOUT_MS: '1500', DB_RETRY_BASE_DELAY_MS: '50', DB_RETRY_MAX_DELAY_MS: '400', ACCOUNT_LOCK_WAIT_MS: '200', BFF_UPSTREAM_TIMEOUT_MS: '15000' };
    expect(timeoutChainViolations(loadConfig(scaled))).toEqual([]);
  });
});

describe('API_WORKERS (adr/0016)', () => {
  const server = { DATABASE_URL: 'postgres://db/tidewater' };
  it('runs one worker per core on a server database, and one on the embedded PGlite', () => {
    expect(loadConfig(server).apiWorkers).toBe(availableParallelism());
    expect(loadConfig({}).apiWorkers).toBe(1);
    expect(loadConfig({ ...server, API_WORKERS: '3' }).apiWorkers).toBe(3);
  });

  it('refuses several workers on PGlite, and a fraction', () => {
    expect(() => loadConfig({ API_WORKERS: '2' })).toThrow(/API_WORKERS must be 1 on the embedded database/);
    expect(() => loadConfig({ ...server, API_WORKERS: '1.5' })).toThrow(/API_WORKERS must be a whole number/);
    expect(() => loadConfig({ ...server, API_WORKERS: '-1' })).toThrow(/API_WORKERS must be a non-negative number/);
    expect(() => loadConfig({ ...server, API_WORKERS: 'two' })).toThrow(/API_WORKERS must be a non-negative number/);
  });

  it('shares read-your-writes marks through the database between workers; memory only without a replica', () => {
    expect(loadConfig({ ...server, API_WORKERS: '2' }).readYourWritesStore).toBe('database');
    expect(loadConfig({ ...server, API_WORKERS: '1' }).readYourWritesStore).toBe('memory');
    expect(loadConfig({ ...server, API_WORKERS: '2', READ_YOUR_WRITES_STORE: 'memory' }).readYourWritesStore).toBe('memory');
    expect(() => loadConfig({ ...server, DATABASE_REPLICA_URL: 'postgres://replica/tidewater', API_WORKERS: '2', READ_YOUR_WRITES_STORE: 'memory' })).toThrow(ConfigError);
  });
});
