/**
 * The error reference: what each code of the catalog (errors.ts) means to a client, whether
 * sending the same request again can succeed, and what to do. The docs' error reference and
 * the page each problem `type` names are generated from this table and the catalog
 * (spec/scripts/generate.mjs writes spec/generated/errorCatalog.json); a code without an
 * entry does not type-check. Plain TypeScript with no Node import, like errors.ts.
 */
import type { ErrorCode } from './errors.ts';

/** One code's entry. */
export interface ErrorReference {
  /** What happened, in one sentence. */
  meaning: string;
  /** True when the same request (the same Idempotency-Key on a money send) may succeed later, after `Retry-After` when given. */
  retryable: boolean;
  /** What the client does next. */
  action: string;
}

/**
 * Which sends need a step-up and count toward the daily ceiling (adr/0045): the one wording every
 * problem page and the reference carry, so none names fewer sends than the bank checks.
 */
export const stepUpSends =
  'A withdrawal, a transfer by handle and a transfer to an IBAN each need a step-up (`verifyPin`, for exactly that payment) and count toward the customer\'s daily ceiling; a deposit and a transfer between the customer\'s own accounts need neither.';

/** Every code's entry, in the catalog's order. */
export const errorReference = {
  VALIDATION_FAILED: { meaning: 'The body, a parameter or a header breaks the schema; `detail` says where.', retryable: false, action: 'Fix the request as `detail` says. A money send stored nothing: send the fixed request with the same key.' },
  MALFORMED_JSON: { meaning: 'The body is not valid JSON.', retryable: false, action: 'Send valid JSON.' },
  IDEMPOTENCY_KEY_MISSING: { meaning: 'A money send came without an `Idempotency-Key` header.', retryable: false, action: 'Make a key for the send (a UUID), keep it, and send it.' },
  UNAUTHENTICATED: { meaning: 'No access token, or one that is expired, revoked or not ours.', retryable: false, action: 'Refresh the token pair (`refreshToken`), or sign in again, then send the same request.' },
  INVALID_CREDENTIALS: { meaning: 'The email or the password is wrong (the answer does not say which).', retryable: false, action: 'Ask the customer again; repeated failures are rate-limited.' },
  TOKEN_INVALID: { meaning: 'The refresh token is unknown, spent, revoked or expired.', retryable: false, action: 'Sign in again (`createToken`).' },
  AUTHORIZATION_INVALID: { meaning: 'The step-up authorisation is unknown, spent or another customer\'s.', retryable: false, action: 'Check the PIN again (`verifyPin`) and send the same request, same key, with the new `authorizationId`. If that answers `422 IDEMPOTENCY_KEY_REUSED`, the key already holds the outcome of an earlier request of this payment: read it (`GET /api/idempotency-keys/{key}`) and take that outcome; never send the payment under a new key.' },
  AUTHORIZATION_EXPIRED: { meaning: 'The step-up authorisation is older than its 5 minutes.', retryable: false, action: 'Check the PIN again (`verifyPin`) and send the same request, same key, with the new `authorizationId`. If that answers `422 IDEMPOTENCY_KEY_REUSED`, the key already holds the outcome of an earlier request of this payment: read it (`GET /api/idempotency-keys/{key}`) and take that outcome; never send the payment under a new key.' },
  AUTHORIZATION_MISMATCH: { meaning: 'The step-up authorisation approves another payment (another operation, account, amount or payee): a send moves exactly what its customer approved.', retryable: false, action: 'Check the PIN again (`verifyPin`) for exactly this payment and send it with the new `authorizationId`; an authorisation is never reused for another payment.' },
  PIN_INCORRECT: { meaning: 'The PIN is wrong; the attempt counts towards the lock.', retryable: false, action: 'Ask the customer again; the fifth wrong PIN in a row locks step-up.' },
  FORBIDDEN: { meaning: 'The caller may not do this.', retryable: false, action: 'Do not send it again.' },
  NOT_FOUND: { meaning: 'Nothing of yours is at this path.', retryable: false, action: 'Check the path and the id.' },
  ACCOUNT_NOT_FOUND: { meaning: 'No open account of yours has this id (it is absent, closed or another customer\'s).', retryable: false, action: 'Check the account id (`listAccounts`). On a money send the key stores this answer: a new send needs a new key.' },
  PAYEE_NOT_FOUND: { meaning: 'No customer has that handle.', retryable: false, action: 'Check the handle. The key stores this answer: a new send needs a new key.' },
  METHOD_NOT_ALLOWED: { meaning: 'The path exists, not with this method; `Allow` names the ones it has.', retryable: false, action: 'Use a method `Allow` names.' },
  EMAIL_TAKEN: { meaning: 'A customer with this email exists.', retryable: false, action: 'Sign in, or use another email.' },
  HANDLE_TAKEN: { meaning: 'Another customer has this handle.', retryable: false, action: 'Choose another handle.' },
  IDEMPOTENCY_IN_FLIGHT: { meaning: 'The first request with this key is still running.', retryable: true, action: 'Wait `Retry-After` seconds, then send the same request with the same key.' },
  IDEMPOTENCY_RESULT_UNKNOWN: { meaning: 'The send landed (`applied: true`) but its answer was lost.', retryable: false, action: 'Never send it again under a new key: the money moved. Find its movements with `listTransactions?idempotencyKey=…`.' },
  PAYLOAD_TOO_LARGE: { meaning: 'The body is larger than the API accepts.', retryable: false, action: 'Send a smaller body.' },
  UNSUPPORTED_MEDIA_TYPE: { meaning: 'The body is not `application/json`.', retryable: false, action: 'Send `Content-Type: application/json`.' },
  HEADERS_TOO_LARGE: { meaning: 'The request headers are over 16 KiB.', retryable: false, action: 'Send fewer or shorter headers.' },
  IDEMPOTENCY_KEY_REUSED: { meaning: 'This key was used for another request (another operation, path or body); nothing was done for this one.', retryable: false, action: 'First read the key\'s state (`GET /api/idempotency-keys/{key}`): `landed` or `refused` is the outcome of its first request, `inFlight` is still running (wait, then read it again). When that first request was this same payment (with an earlier `authorizationId`, say), its outcome is this payment\'s: never send it again under a new key. Make a new key only for a different payment.' },
  INSUFFICIENT_FUNDS: { meaning: 'The account does not hold enough money for this.', retryable: false, action: 'The key stores this answer: after a deposit, send again with a new key.' },
  BALANCE_LIMIT_EXCEEDED: { meaning: 'The receiving account would hold more than a balance can.', retryable: false, action: 'Send less. The key stores this answer: a new send needs a new key.' },
  DAILY_LIMIT_EXCEEDED: { meaning: 'The money leaving this customer today (UTC) would pass their daily ceiling: withdrawals, transfers by handle and transfers to an IBAN count together.', retryable: false, action: 'Send less, or tomorrow, with a new key; `detail` says what is left today.' },
  INVALID_IBAN: { meaning: 'The IBAN\'s checksum or its country\'s length is wrong.', retryable: false, action: 'Check the IBAN; a new send needs a new key.' },
  SAME_ACCOUNT: { meaning: 'The money would go back into the account it leaves.', retryable: false, action: 'Choose another destination; a new send needs a new key.' },
  ACCOUNT_CLOSED: { meaning: 'The account is closed.', retryable: false, action: 'Use an open account.' },
  ACCOUNT_NOT_EMPTY: { meaning: 'Only an empty account can be closed.', retryable: false, action: 'Move its money out first.' },
  ACCOUNT_IS_PRIMARY: { meaning: 'The primary account closes only as the last open one.', retryable: false, action: 'Choose another primary account first (`setPrimaryAccount`).' },
  PAYEE_HAS_NO_OPEN_ACCOUNT: { meaning: 'The payee has no open account to receive the money.', retryable: false, action: 'Ask the payee; a new send needs a new key.' },
  ACCOUNT_LIMIT_REACHED: { meaning: 'The customer holds as many open accounts as they may (20 by default).', retryable: false, action: 'Close an account first; the key stores this answer, so open with a new key.' },
  PIN_LOCKED: { meaning: 'Too many wrong PINs in a row: step-up is locked for a while, each lock of a streak twice as long as the one before.', retryable: true, action: 'Wait `Retry-After` seconds, then check the PIN again.' },
  PIN_BLOCKED: { meaning: 'The PIN locked too many times in a row: step-up is blocked until the bank unblocks it after checking who the customer is (adr/0064); a sign-in does not lift it.', retryable: false, action: 'Send the customer to Tidewater support; do not retry the PIN.' },
  TOO_MANY_REQUESTS: { meaning: 'Too many attempts: sign-ups from your address, failed sign-ins, or payee look-ups (a payment by handle counts as one).', retryable: true, action: 'Wait `Retry-After` seconds. `RateLimit` names the quota that was spent (`r=0`) and `RateLimit-Policy` its size (see "Limits" in the introduction). A server that signs in for a customer sends the `deviceToken` its last sign-in answered: no one else\'s failures behind its address hold it back.' },
  CLIENT_CLOSED_REQUEST: { meaning: 'Never received: the status the server logs for a request whose client hung up before its answer was written. A hang-up cancels nothing that already started: a money send may have landed.', retryable: true, action: 'Treat it as an unknown outcome: keep the key, read `GET /api/idempotency-keys/{key}` or send the same request with the same key; never a new key for it.' },
  INTERNAL: { meaning: 'Something unexplained went wrong on our side.', retryable: false, action: 'Quote the `traceId` to us. On a money send, keep the key: send the same request again with it to learn its outcome.' },
  SERVICE_UNAVAILABLE: { meaning: 'The API gave up within its deadline (database down, hung or busy). On a money send, `applied: false` means nothing moved; without it the outcome is unknown.', retryable: true, action: 'Wait `Retry-After` seconds, then send the same request with the same key.' },
} as const satisfies Record<ErrorCode, ErrorReference>;
