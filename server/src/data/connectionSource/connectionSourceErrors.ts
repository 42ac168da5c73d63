/**
 * The one error the connection source throws (adr/0005). `kind` says
 * which rule ended the retrieval, so callers branch on it instead of parsing messages:
 *
 * - `config`    the options break an invariant; thrown before any HTTP call (server refuses to start)
 * - `denied`    HTTP 401; fail fast, the credentials are presented exactly once
 * - `forbidden` HTTP 403; fail fast
 * - `notFound`  HTTP 404; fail fast, the message carries the service's own message
 * - `failed`    any other non-success status (500, 400, 3xx...); fail at once
 * - `exhausted` every attempt hit a transient failure (502/503/504, network error, timeout)
 * - `empty`     a 2xx whose body is empty or whitespace only
 *
 * Messages never contain the token or the connection string.
 */
export type ConnectionSourceErrorKind =
  'config' | 'denied' | 'forbidden' | 'notFound' | 'failed' | 'exhausted' | 'empty';

/** Details a retrieval error may carry; all optional, none secret. */
export interface ConnectionSourceErrorDetails {
  /** The underlying error (network failure, timeout, or a description of the last transient status). */
  cause?: unknown;
  /** HTTP status of the response that decided the outcome, when there was one. */
  status?: number;
  /** How many HTTP attempts were made before giving up. */
  attempts?: number;
  /** Wall-clock milliseconds from the first attempt to the failure. */
  elapsedMs?: number;
}

/** Shared across module copies (e.g. two bundles) so the guard still recognises the error. */
const brand = Symbol.for('tidewater.ConnectionSourceError');

/** Error raised by `data/connectionSource`; see {@link ConnectionSourceErrorKind} for the kinds. */
export class ConnectionSourceError extends Error {
  /** Brand checked by {@link isConnectionSourceError}. */
  readonly [brand] = true;
  override readonly name = 'ConnectionSourceError';
  /** Which rule ended the retrieval. */
  readonly kind: ConnectionSourceErrorKind;
  /** HTTP status that decided the outcome, if any. */
  readonly status: number | undefined;
  /** Attempts made, if any HTTP call was made. */
  readonly attempts: number | undefined;
  /** Milliseconds from the first attempt to the failure, if any HTTP call was made. */
  readonly elapsedMs: number | undefined;

  /** @param kind which rule failed; @param message human-readable, never secret. */
  constructor(kind: ConnectionSourceErrorKind, message: string, details: ConnectionSourceErrorDetails = {}) {
    super(message, details.cause === undefined ? undefined : { cause: details.cause });
    this.kind = kind;
    this.status = details.status;
    this.attempts = details.attempts;
    this.elapsedMs = details.elapsedMs;
  }
}

/** True when `error` is a {@link ConnectionSourceError} (by brand, so it survives duplicated modules). */
export function isConnectionSourceError(error: unknown): error is ConnectionSourceError {
  return typeof error === 'object' && error !== null && (error as { [brand]?: unknown })[brand] === true;
}
