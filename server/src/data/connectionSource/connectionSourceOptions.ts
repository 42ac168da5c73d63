/**
 * The connection source's options (adr/0005), checked before any HTTP call, and the bound
 * on one retrieval's time.
 */
import { ConnectionSourceError } from './connectionSourceErrors.ts';

/** The logger shape the source needs; a pino logger fits. Never receives the token or connection string. */
export interface ConnectionSourceLogger {
  warn(obj: object, msg: string): void;
  info?(obj: object, msg: string): void;
}

/** Options for `createConnectionSource` (connectionSource.ts); defaults (set in server/src/config.ts) are given per field. */
export interface ConnectionSourceOptions {
  /** Base URL of the service (DB_CONNECTION_API_URL), e.g. `https://secrets.internal/v1`. */
  apiUrl: string;
  /** Name of the connection to fetch (DB_CONNECTION_NAME). */
  connectionName: string;
  /** Bearer token (DB_CONNECTION_API_TOKEN); when absent or empty no Authorization header is sent. */
  token?: string;
  /** Total HTTP attempts, first included (DB_CONNECTION_ATTEMPTS); default 4. */
  attempts: number;
  /** Wait before retry n is `backoffMs[n-1]` (DB_CONNECTION_BACKOFF_MS); default [2000, 3000, 5000]. */
  backoffMs: readonly number[];
  /** Deadline of one attempt, response body included; e.g. 5000. */
  attemptTimeoutMs: number;
  /** Where failed attempts are reported (warn) and successes/invalidations (info). */
  logger: ConnectionSourceLogger;
  /** Waits between attempts; injectable for tests. Default: `node:timers/promises` setTimeout. */
  sleep?: (ms: number, signal?: AbortSignal) => Promise<void>;
}

/**
 * A cached connection string. The cache is per source (each source has one connection name):
 * concurrent first calls share one in-flight retrieval, a failed retrieval is not kept.
 */
export interface ConnectionSource {
  /** The connection string, from the cache or from one (retried) retrieval. */
  get(): Promise<string>;
  /** Drops the cached (or in-flight) value so the next `get()` retrieves again; `reason` is logged. */
  invalidate(reason: string): void;
}

/**
 * Checks the options before any HTTP call; the server refuses to start when this throws.
 * The key invariant: `backoffMs.length >= attempts - 1` (one wait before every retry).
 * @throws ConnectionSourceError kind `config`, listing every problem found.
 */
export function validateConnectionSourceOptions(options: ConnectionSourceOptions): void {
  const { apiUrl, connectionName, attempts, backoffMs, attemptTimeoutMs } = options;
  const problems: string[] = [];
  if (!isHttpUrlWithoutCredentials(apiUrl)) {
    problems.push('apiUrl (DB_CONNECTION_API_URL) must be an absolute http(s) URL without user:password');
  }
  if (typeof connectionName !== 'string' || connectionName.trim() === '') {
    problems.push('connectionName (DB_CONNECTION_NAME) must not be empty');
  }
  if (!Number.isInteger(attempts) || attempts < 1) {
    problems.push(`attempts (DB_CONNECTION_ATTEMPTS) must be an integer >= 1, got ${attempts}`);
  }
  if (!backoffMs.every((ms) => Number.isFinite(ms) && ms >= 0)) {
    problems.push(
      `backoffMs (DB_CONNECTION_BACKOFF_MS) delays must be >= 0 ms, got [${backoffMs.join(', ')}]`,
    );
  } else if (Number.isInteger(attempts) && backoffMs.length < attempts - 1) {
    problems.push(
      `${attempts} attempts (DB_CONNECTION_ATTEMPTS) need at least ${attempts - 1} backoff delays, ` +
        `but backoffMs (DB_CONNECTION_BACKOFF_MS) has ${backoffMs.length}`,
    );
  }
  if (!Number.isFinite(attemptTimeoutMs) || attemptTimeoutMs <= 0) {
    problems.push(`attemptTimeoutMs must be > 0, got ${attemptTimeoutMs}`);
  }
  if (problems.length > 0) {
    throw new ConnectionSourceError(
      'config',
      `invalid connection source configuration: ${problems.join('; ')}`,
    );
  }
}

/**
 * Upper bound on one retrieval's wall-clock time: every attempt times out and every wait is
 * taken, i.e. sum of the first `attempts - 1` delays + `attempts × attemptTimeoutMs`.
 * Defaults (4, [2000,3000,5000], 5000) give 30 000 ms.
 */
export function worstCaseMs(
  options: Pick<ConnectionSourceOptions, 'attempts' | 'backoffMs' | 'attemptTimeoutMs'>,
): number {
  const waits = options.backoffMs.slice(0, Math.max(0, options.attempts - 1));
  return waits.reduce((sum, ms) => sum + ms, 0) + options.attempts * options.attemptTimeoutMs;
}

function isHttpUrlWithoutCredentials(text: unknown): boolean {
  if (typeof text !== 'string') return false;
  try {
    const url = new URL(text);
    return (
      (url.protocol === 'http:' || url.protocol === 'https:') && url.username === '' && url.password === ''
    );
  } catch {
    return false;
  }
}
