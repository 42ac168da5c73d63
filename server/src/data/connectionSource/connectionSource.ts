import { setTimeout as delay } from 'node:timers/promises';
import { ConnectionSourceError, type ConnectionSourceErrorKind } from './connectionSourceErrors.ts';
import { countConnectionSourceAttempt, countConnectionSourceRetrieval } from '../../metrics.ts';

/**
 * Connection source (adr/0005): takes the database connection
 * string from a connection/secrets HTTP service instead of DATABASE_URL.
 *
 * There is exactly ONE retry layer, the loop in `retrieve` below. Under it each attempt is one
 * plain `fetch` with its own `AbortSignal.timeout` and `redirect: 'manual'`: no transport retry,
 * no redirect-following, so a 401 presents the credentials exactly once and the number of HTTP
 * requests never exceeds `attempts`. Each attempt returns its outcome as a value; nothing is
 * shared between attempts or between calls.
 */

/** The logger shape the source needs; a pino logger fits. Never receives the token or connection string. */
interface ConnectionSourceLogger {
  warn(obj: object, msg: string): void;
  info?(obj: object, msg: string): void;
}

/** Options for {@link createConnectionSource}; defaults (set in server/src/config.ts) are given per field. */
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

/** Statuses that mean "try again later": the service or a proxy in front of it is briefly unavailable. */
const TRANSIENT_STATUSES: ReadonlySet<number> = new Set([502, 503, 504]);
/** Legacy services escape the BEL character (\u0007) as this literal. */
const LEGACY_BEL_TOKEN = 'ZSPECIALCHAR';
/** Only this much of an error body is read; the message keeps fewer characters still. */
const SERVICE_MESSAGE_MAX_BYTES = 4096;
const SERVICE_MESSAGE_MAX_CHARS = 300;

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

/**
 * Creates a source for one connection. Validates the options first (throws before any HTTP call);
 * the first `get()` performs the retrieval.
 * @throws ConnectionSourceError kind `config` when the options are invalid.
 */
export function createConnectionSource(options: ConnectionSourceOptions): ConnectionSource {
  validateConnectionSourceOptions(options);
  const context = resolveContext(options);
  let current: Promise<string> | undefined;
  return {
    get() {
      if (current) return current;
      const retrieval = retrieve(context);
      current = retrieval;
      // A failure is not cached; the identity check keeps an invalidate() + newer get() intact.
      retrieval.catch(() => {
        if (current === retrieval) current = undefined;
      });
      return retrieval;
    },
    invalidate(reason) {
      current = undefined;
      context.logger.info?.(
        { connectionName: context.connectionName, reason },
        'connection string invalidated',
      );
    },
  };
}

/**
 * True when `error` (or an error in its `cause` chain) is PostgreSQL SQLSTATE 28P01,
 * "password authentication failed": the password in the cached connection string is stale.
 */
export function isPasswordAuthenticationFailure(error: unknown): boolean {
  let current = error;
  for (let depth = 0; depth < 8 && typeof current === 'object' && current !== null; depth++) {
    if ((current as { code?: unknown }).code === '28P01') return true;
    current = (current as { cause?: unknown }).cause;
  }
  return false;
}

/**
 * Calls `connect` with the source's connection string. If it fails with SQLSTATE 28P01 (the
 * password was rotated), invalidates the source ONCE and calls `connect` again with a freshly
 * retrieved string; a second failure is thrown as is. Never more than two connects.
 */
export async function withPasswordRotation<T>(
  source: ConnectionSource,
  connect: (connectionString: string) => Promise<T>,
): Promise<T> {
  const connectionString = await source.get();
  try {
    return await connect(connectionString);
  } catch (error) {
    if (!isPasswordAuthenticationFailure(error)) throw error;
    source.invalidate('password authentication failed (SQLSTATE 28P01)');
    return connect(await source.get());
  }
}

/** Options resolved once: the request is built here, never per attempt from mutable state. */
interface RetrievalContext {
  readonly url: string;
  readonly headers: Readonly<Record<string, string>>;
  readonly connectionName: string;
  readonly attempts: number;
  readonly backoffMs: readonly number[];
  readonly attemptTimeoutMs: number;
  readonly logger: ConnectionSourceLogger;
  readonly sleep: (ms: number, signal?: AbortSignal) => Promise<void>;
}

function resolveContext(options: ConnectionSourceOptions): RetrievalContext {
  const base = options.apiUrl.replace(/\/+$/, '');
  const headers: Record<string, string> = options.token ? { authorization: `Bearer ${options.token}` } : {};
  const defaultSleep = (ms: number, signal?: AbortSignal) => delay(ms, undefined, { signal });
  return Object.freeze({
    url: `${base}/connections/${encodeURIComponent(options.connectionName)}`,
    headers: Object.freeze(headers),
    connectionName: options.connectionName,
    attempts: options.attempts,
    backoffMs: Object.freeze([...options.backoffMs]),
    attemptTimeoutMs: options.attemptTimeoutMs,
    logger: options.logger,
    sleep: options.sleep ?? defaultSleep,
  });
}

/** What one attempt ended in; a value, so the loop never reads shared state. */
type AttemptOutcome =
  | { kind: 'value'; value: string }
  | { kind: 'transient'; status?: number; errorCode?: string; cause: unknown }
  | { kind: 'fatal'; errorKind: ConnectionSourceErrorKind; message: string; status: number };

/** The one retry layer: transient outcomes wait `backoffMs[attempt-1]` and try again. */
async function retrieve(context: RetrievalContext): Promise<string> {
  const { connectionName, attempts, logger } = context;
  const started = performance.now();
  const elapsedMs = () => Math.round(performance.now() - started);
  for (let attempt = 1; ; attempt++) {
    const outcome = await attemptOnce(context);
    countConnectionSourceAttempt(outcome.kind);
    if (outcome.kind === 'value') {
      countConnectionSourceRetrieval('retrieved');
      logger.info?.({ connectionName, attempt, elapsedMs: elapsedMs() }, 'connection string retrieved');
      return outcome.value;
    }
    const failure = {
      connectionName,
      attempt,
      attempts,
      status: outcome.status,
      errorCode: outcome.kind === 'transient' ? outcome.errorCode : undefined,
    };
    if (outcome.kind === 'transient' && attempt < attempts) {
      const delayMs = context.backoffMs[attempt - 1] ?? 0; // validated: always present
      logger.warn({ ...failure, delayMs }, `connection retrieval attempt failed; retrying in ${delayMs} ms`);
      await context.sleep(delayMs);
      continue;
    }
    const total = elapsedMs();
    const error =
      outcome.kind === 'fatal'
        ? new ConnectionSourceError(outcome.errorKind, outcome.message, {
            status: outcome.status,
            attempts: attempt,
            elapsedMs: total,
          })
        : new ConnectionSourceError(
            'exhausted',
            `retrieving connection ${connectionName} failed after ${attempt} attempt${attempt === 1 ? '' : 's'} ` +
              `in ${total} ms (last: ${describeTransient(outcome)})`,
            { cause: outcome.cause, status: outcome.status, attempts: attempt, elapsedMs: total },
          );
    countConnectionSourceRetrieval(outcome.kind === 'fatal' ? 'fatal' : 'exhausted');
    logger.warn({ ...failure, kind: error.kind, elapsedMs: total }, 'connection retrieval failed');
    throw error;
  }
}

/** One HTTP request, classified. Permanent statuses are checked before the transient test. */
async function attemptOnce(context: RetrievalContext): Promise<AttemptOutcome> {
  const name = context.connectionName;
  let response: Response;
  try {
    // The signal bounds the whole attempt: connect, headers and body.
    response = await fetch(context.url, {
      headers: context.headers,
      redirect: 'manual',
      signal: AbortSignal.timeout(context.attemptTimeoutMs),
    });
  } catch (error) {
    return networkFailure(error);
  }
  const { status } = response;
  if (status === 401) {
    await discardBody(response);
    return fatal('denied', `denied access to connection ${name} (HTTP 401)`, status);
  }
  if (status === 403) {
    await discardBody(response);
    return fatal('forbidden', `access denied retrieving connection ${name} (HTTP 403)`, status);
  }
  if (status === 404) {
    const message = await readServiceMessage(response);
    return fatal(
      'notFound',
      `connection ${name} not found${message ? `. Service message: ${message}` : ''}`,
      status,
    );
  }
  if (TRANSIENT_STATUSES.has(status)) {
    const message = await readServiceMessage(response);
    return { kind: 'transient', status, cause: new Error(`HTTP ${status}${message ? `: ${message}` : ''}`) };
  }
  if (!response.ok) {
    const message = await readServiceMessage(response);
    const prefix = `retrieving connection ${name} failed with HTTP ${status}`;
    return fatal('failed', message ? `${prefix}: ${message}` : prefix, status);
  }
  let body: string;
  try {
    body = await response.text();
  } catch (error) {
    return networkFailure(error); // reset or timed out mid-body
  }
  if (body.trim() === '') return fatal('empty', `connection string is empty (connection ${name})`, status);
  return { kind: 'value', value: body.replaceAll(LEGACY_BEL_TOKEN, '\u0007') };
}

/** Refused, reset, DNS failure, or this attempt's own timeout: all transient. */
function networkFailure(error: unknown): AttemptOutcome {
  return { kind: 'transient', errorCode: networkErrorCode(error), cause: error };
}

/** Frees the connection without reading; a failure here must not turn a 401 into a retry. */
async function discardBody(response: Response): Promise<void> {
  await response.body?.cancel().catch(() => undefined);
}

function fatal(errorKind: ConnectionSourceErrorKind, message: string, status: number): AttemptOutcome {
  return { kind: 'fatal', errorKind, message, status };
}

function describeTransient(outcome: { status?: number; errorCode?: string }): string {
  return outcome.status !== undefined ? `HTTP ${outcome.status}` : (outcome.errorCode ?? 'network error');
}

function networkErrorCode(error: unknown): string {
  if (error instanceof Error && (error.name === 'TimeoutError' || error.name === 'AbortError'))
    return 'TIMEOUT';
  const cause = (error as { cause?: { code?: unknown } } | null)?.cause;
  if (typeof cause?.code === 'string') return cause.code;
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' ? code : 'NETWORK_ERROR';
}

/**
 * The service's own words from an error body: problem+json `detail`/`title` (or a JSON `message`),
 * else the text itself; whitespace collapsed, bounded. `undefined` when there is nothing usable.
 */
async function readServiceMessage(response: Response): Promise<string | undefined> {
  let text: string;
  try {
    text = await readPrefix(response, SERVICE_MESSAGE_MAX_BYTES);
  } catch {
    return undefined; // the status alone still decides the outcome
  }
  let message = text;
  if (/json/i.test(response.headers.get('content-type') ?? '')) {
    try {
      const parsed = JSON.parse(text) as Record<string, unknown>;
      const field = [parsed.detail, parsed.title, parsed.message].find((v) => typeof v === 'string');
      if (typeof field === 'string') message = field;
    } catch {
      // not JSON after all (a proxy's page, or cut at the byte limit): keep the text
    }
  }
  message = message.replace(/\s+/g, ' ').trim();
  if (message === '') return undefined;
  return message.length > SERVICE_MESSAGE_MAX_CHARS
    ? `${message.slice(0, SERVICE_MESSAGE_MAX_CHARS)}…`
    : message;
}

/** Reads at most `maxBytes` of the body and cancels the rest, so a huge error page cannot hold us. */
async function readPrefix(response: Response, maxBytes: number): Promise<string> {
  if (!response.body) return '';
  const reader = response.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  try {
    while (size < maxBytes) {
      const { done, value } = await reader.read();
      if (done) break;
      chunks.push(value);
      size += value.byteLength;
    }
  } finally {
    await reader.cancel().catch(() => undefined);
  }
  return new TextDecoder().decode(Buffer.concat(chunks).subarray(0, maxBytes));
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
