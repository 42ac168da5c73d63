/**
 * The one error catalog and problem builder of Tidewater (RFC 9457 application/problem+json,
 * the spec's `Problem` schema): every `errorCode` the API can answer with its HTTP status,
 * title and problem type. The API throws and answers these codes; the BFF answers a few of
 * them itself, with the same status, title and type, so a visitor cannot tell who wrote a
 * problem except by its detail; the SPA reads the codes (and words them itself, in
 * web-vue's messages.ts). The spec's `ErrorCode` enum is the same list:
 * server/src/errors/errorCatalog.test.ts keeps the two equal in both directions.
 * Plain TypeScript with no Node import: the SPA's bundle imports it too.
 */

/** Every code, with its status and title. */
export const errorCatalog = {
  VALIDATION_FAILED: { status: 400, title: 'The request is not valid' },
  MALFORMED_JSON: { status: 400, title: 'The request body is not valid JSON' },
  IDEMPOTENCY_KEY_MISSING: { status: 400, title: 'An Idempotency-Key header is required' },
  UNAUTHENTICATED: { status: 401, title: 'Sign in to continue' },
  INVALID_CREDENTIALS: { status: 401, title: 'The email or password is not right' },
  TOKEN_INVALID: { status: 401, title: 'The token is not valid' },
  AUTHORIZATION_INVALID: { status: 401, title: 'The step-up authorisation is not valid' },
  AUTHORIZATION_EXPIRED: { status: 401, title: 'The step-up authorisation has expired' },
  AUTHORIZATION_MISMATCH: { status: 403, title: 'The step-up authorisation approves another payment' },
  PIN_INCORRECT: { status: 403, title: 'The PIN is not right' },
  FORBIDDEN: { status: 403, title: 'Not allowed' },
  NOT_FOUND: { status: 404, title: 'Not found' },
  ACCOUNT_NOT_FOUND: { status: 404, title: 'Account not found' },
  PAYEE_NOT_FOUND: { status: 404, title: 'No customer has that handle' },
  METHOD_NOT_ALLOWED: { status: 405, title: 'Method not allowed' },
  EMAIL_TAKEN: { status: 409, title: 'That email is already registered' },
  HANDLE_TAKEN: { status: 409, title: 'That handle is taken' },
  IDEMPOTENCY_IN_FLIGHT: { status: 409, title: 'A request with this Idempotency-Key is still being processed' },
  IDEMPOTENCY_RESULT_UNKNOWN: { status: 409, title: 'This request was applied, but its answer was lost' },
  PAYLOAD_TOO_LARGE: { status: 413, title: 'The request body is too large' },
  UNSUPPORTED_MEDIA_TYPE: { status: 415, title: 'The request body must be JSON' },
  HEADERS_TOO_LARGE: { status: 431, title: 'The request headers are too large' },
  IDEMPOTENCY_KEY_REUSED: { status: 422, title: 'This Idempotency-Key was used for another request' },
  INSUFFICIENT_FUNDS: { status: 422, title: 'Insufficient funds' },
  BALANCE_LIMIT_EXCEEDED: { status: 422, title: 'The account cannot hold that much money' },
  DAILY_LIMIT_EXCEEDED: { status: 422, title: 'The daily limit for money leaving the customer would be exceeded' },
  INVALID_IBAN: { status: 422, title: 'The IBAN is not valid' },
  SAME_ACCOUNT: { status: 422, title: 'The source and destination accounts are the same' },
  ACCOUNT_CLOSED: { status: 422, title: 'The account is closed' },
  ACCOUNT_NOT_EMPTY: { status: 422, title: 'Only an empty account can be closed' },
  ACCOUNT_IS_PRIMARY: { status: 422, title: 'The primary account cannot be closed' },
  PAYEE_HAS_NO_OPEN_ACCOUNT: { status: 422, title: 'The payee has no open account' },
  ACCOUNT_LIMIT_REACHED: { status: 422, title: 'The customer holds as many open accounts as they may' },
  PIN_LOCKED: { status: 423, title: 'The PIN is locked after too many attempts' },
  PIN_BLOCKED: { status: 423, title: 'The PIN is blocked until the bank unblocks it' },
  TOO_MANY_REQUESTS: { status: 429, title: 'Too many requests' },
  CLIENT_CLOSED_REQUEST: { status: 499, title: 'The client hung up before the answer' },
  INTERNAL: { status: 500, title: 'Something went wrong on our side' },
  SERVICE_UNAVAILABLE: { status: 503, title: 'The service is temporarily unavailable' },
} as const satisfies Record<string, { status: number; title: string }>;

/** Every code the API can answer. */
export type ErrorCode = keyof typeof errorCatalog;

/** The path segment of a code's page: `INSUFFICIENT_FUNDS` → `insufficient-funds`. */
export function problemSlug(code: ErrorCode): string {
  return code.toLowerCase().replaceAll('_', '-');
}

/**
 * The problem `type` of a code: a URI reference to its page in the docs (RFC 9457 §3.1.1:
 * resolved against the answer's own URI, so it names the page on whichever host answered:
 * the BFF, where the docs live, and the API, which serves the same pages).
 */
export function problemType(code: ErrorCode): string {
  return `/docs/problems/${problemSlug(code)}`;
}

/** Extra members a problem may carry (RFC 9457 extensions of the Problem schema). */
export interface ProblemExtras {
  retryAfterSeconds?: number;
  /** Money sends only, and only the API knows it: false = nothing moved. */
  applied?: boolean;
  /** VALIDATION_FAILED only: each fault, where it is (RFC 9457 §3.2's `errors`, the spec's Problem.errors). */
  errors?: ValidationFault[];
}

/** One fault of a request that is not valid: `pointer` into the JSON body, or the `parameter` or `header` it is in. */
export interface ValidationFault {
  detail: string;
  pointer?: string;
  parameter?: string;
  header?: string;
}

/** The wire shape of a problem (components.schemas.Problem), for the codes `C`. */
export interface ProblemBody<C extends ErrorCode = ErrorCode> extends ProblemExtras {
  type: string;
  title: string;
  status: number;
  detail?: string;
  errorCode: C;
  traceId: string;
}

/** Builds the problem body for a code: its catalogued status, title and type, a detail when given, and the extras. */
export function problemBody<C extends ErrorCode>(code: C, traceId: string, detail?: string, extras: ProblemExtras = {}): ProblemBody<C> {
  const { status, title } = errorCatalog[code];
  return { type: problemType(code), title, status, ...(detail ? { detail } : {}), errorCode: code, traceId, ...extras };
}
