/**
 * One retrieval of a connection string (adr/0005): the one retry layer, the loop in
 * `retrieve`, over attempts that are each one plain `fetch`, classified as a value.
 */
import { setTimeout as delay } from 'node:timers/promises';
import { ConnectionSourceError, type ConnectionSourceErrorKind } from './connectionSourceErrors.ts';
import { countConnectionSourceAttempt, countConnectionSourceRetrieval } from '../../metrics.ts';
import type { ConnectionSourceLogger, ConnectionSourceOptions } from './connectionSourceOptions.ts';

/** Statuses that mean "try again later": the service or a proxy in front of it is briefly unavailable. */
const TRANSIENT_STATUSES: ReadonlySet<number> = new Set([502, 503, 504]);
/** Legacy services escape the BEL character (\u0007) as this literal. */
const LEGACY_BEL_TOKEN = 'ZSPECIALCHAR';
/** Only this much of an error body is read; the message keeps fewer characters still. */
const SERVICE_MESSAGE_MAX_BYTES = 4096;
const SERVICE_MESSAGE_MAX_CHARS = 300;

/** Options resolved once: the request is built here, never per attempt from mutable state. */
export interface RetrievalContext {
  readonly url: string;
  readonly headers: Readonly<Record<string, string>>;
  readonly connectionName: string;
  readonly attempts: number;
  readonly backoffMs: readonly number[];
  readonly attemptTimeoutMs: number;
  readonly logger: ConnectionSourceLogger;
  readonly sleep: (ms: number, signal?: AbortSignal) => Promise<void>;
}

export function resolveContext(options: ConnectionSourceOptions): RetrievalContext {
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
export async function retrieve(context: RetrievalContext): Promise<string> {
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
