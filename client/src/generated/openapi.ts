// DO NOT EDIT: generated from spec/openapi.yaml by spec/scripts/generate.mjs (npm run generate).

export interface paths {
  '/api/auth/register': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * Sign up
     * @description Creates a customer and opens their first account, named "Everyday", which is
     *     their primary account. Email and handle are unique (`409 EMAIL_TAKEN`,
     *     `409 HANDLE_TAKEN`); a handle a payer could mistake for an existing one (the same
     *     after folding 1/i/l, 0/o, rn/m and vv/w) or one that looks like the bank speaking
     *     (`admin`, `support`, anything with `tidewater` …) is `409 HANDLE_TAKEN` too. A PIN
     *     a guesser tries first (one repeated digit, a run like `1234` or `9876`, one of the
     *     twenty most common) and a password among the most common are
     *     `400 VALIDATION_FAILED`. Sign-ups are limited before anything is looked up or
     *     hashed, whatever their answer (a taken email too): 20 a minute from one address
     *     and 60 a minute in all, then `429 TOO_MANY_REQUESTS` with `Retry-After`.
     */
    post: operations['register'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/auth/token': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * Sign in
     * @description Exchanges email and password for an access token, a refresh token and a device
     *     token. A wrong email or password is `401 INVALID_CREDENTIALS` (the answer does not
     *     say which). Failed attempts are limited (`429 TOO_MANY_REQUESTS`, RateLimit fields
     *     on every answer; see "Limits" in the introduction): per email and address, per
     *     address, and per email, with a growing wait, for any device but a known one: send
     *     the `deviceToken` your last sign-in answered, and failures from elsewhere, or from
     *     others behind your own address, never hold you back. A server keeps it with the
     *     customer's credentials and sends it on every sign-in.
     */
    post: operations['createToken'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/auth/refresh': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * Refresh the token pair
     * @description Exchanges a refresh token for a new pair; the old refresh token is spent
     *     (rotation). An unknown, spent, revoked or expired token is `401 TOKEN_INVALID`;
     *     a spent one coming back ends its whole session (it was stolen or replayed), whose
     *     access tokens are then refused within 2 seconds. A hang-up does not cancel it (`x-no-deadline`); the request deadline still bounds it.
     */
    post: operations['refreshToken'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/auth/revoke': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * Revoke a refresh token
     * @description Revokes one refresh token. Revoking a session's current refresh token ends the
     *     session: its access tokens are refused (`401`) within 2 seconds (RFC 7009 §2.1).
     *     Idempotent: an unknown or already revoked token is also `204`. A hang-up does not cancel it (`x-no-deadline`); the request deadline
     *     still bounds it.
     */
    post: operations['revokeToken'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/auth/logout': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * Sign out everywhere
     * @description Revokes every refresh token of the signed-in customer and so ends every session:
     *     access tokens already issued are refused (`401`) within 2 seconds, not at their
     *     expiry. A hang-up does not cancel it
     *     (`x-no-deadline`); the request deadline still bounds it.
     */
    post: operations['logout'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/me': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * The signed-in customer
     * @description Returns the customer the access token belongs to.
     */
    get: operations['getMe'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/accounts': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * List my accounts
     * @description The signed-in customer's accounts, open and closed, oldest first, a page at a time
     *     (`nextCursor` is null on the last page; a customer with 50 accounts or fewer gets
     *     them all on the first page, as before paging). A cursor this API did not give out
     *     is `400 VALIDATION_FAILED`.
     */
    get: operations['listAccounts'];
    put?: never;
    /**
     * Open an account
     * @description Opens a new, empty EUR account for the signed-in customer. Send an
     *     `Idempotency-Key` (the SPA always does) and keep it until you know the answer: the
     *     same key with the same name replays the account it opened, so a retry after a lost
     *     answer never opens a second one; the key follows the rules of a money send (see
     *     Idempotency in the introduction: `409 IDEMPOTENCY_IN_FLIGHT` while the first
     *     request runs, `409 IDEMPOTENCY_RESULT_UNKNOWN` with `applied: true` when it opened
     *     the account but its answer was lost, `422 IDEMPOTENCY_KEY_REUSED` for another
     *     name, and a 503 may say `applied: false`: no account was opened). Without a key,
     *     every request opens an account. A customer holds at most 20 open accounts (the
     *     operator may set another bound): one more is `422 ACCOUNT_LIMIT_REACHED`, which a
     *     key stores like a money send's refusal.
     */
    post: operations['openAccount'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/accounts/{accountId}': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * Get an account
     * @description One account of the signed-in customer. Another customer's account is
     *     `404 ACCOUNT_NOT_FOUND`, exactly like one that does not exist.
     */
    get: operations['getAccount'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    /**
     * Rename an account
     * @description Gives one of the customer's accounts (open or closed) a new name. Another
     *     customer's account is `404 ACCOUNT_NOT_FOUND`.
     */
    patch: operations['renameAccount'];
    trace?: never;
  };
  '/api/accounts/{accountId}/close': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * Close an account
     * @description Closes an empty account. A balance above zero is `422 ACCOUNT_NOT_EMPTY`, an
     *     already closed account `422 ACCOUNT_CLOSED`. The primary account cannot be closed
     *     while another account is open (`422 ACCOUNT_IS_PRIMARY`: choose another primary
     *     first); closing the last open account leaves the customer without a primary
     *     account, and transfers to their handle answer `422 PAYEE_HAS_NO_OPEN_ACCOUNT`.
     *     The account and its movements stay readable.
     */
    post: operations['closeAccount'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/accounts/{accountId}/primary': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * Make an account primary
     * @description Makes an open account the customer's primary account, where transfers to their
     *     handle land. A closed account is `422 ACCOUNT_CLOSED`.
     */
    post: operations['setPrimaryAccount'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/step-up': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * Check the PIN (step-up)
     * @description Strong customer authentication with dynamic linking (PSD2 RTS Art. 5): money that
     *     leaves the customer (a withdrawal, a transfer to another customer by handle, a
     *     transfer to an IBAN) needs the customer's PIN, given for that one payment. The
     *     request names the payment (`payment`: the operation, the account the money leaves,
     *     the amount and the payee); show the customer the amount and the payee before they
     *     type the PIN. A right PIN returns a short-lived (5 minutes), single-use
     *     authorization bound to exactly that payment (echoed as `payment`, the IBAN in
     *     electronic form): the send must carry the same operation, account, amount and
     *     payee, or it is `403 AUTHORIZATION_MISMATCH` and nothing moves. It is spent only
     *     when the money moves; a send refused for any other reason leaves it bound to the
     *     same payment, never free for another one. Transfers between the customer's own
     *     accounts need none. A payee IBAN whose checksum or length is wrong is
     *     `422 INVALID_IBAN` before the PIN is checked.
     *
     *     A wrong PIN is `403 PIN_INCORRECT`; the fifth wrong PIN in a row locks the PIN
     *     (`423 PIN_LOCKED`, with `Retry-After` and `retryAfterSeconds`): the first lock for
     *     15 minutes, the second, within a day of the first, for 30; the third blocks step-up
     *     until the bank unblocks it after checking who the customer is (`423 PIN_BLOCKED`, no
     *     `Retry-After`: waiting does not lift it). A right PIN ends the streak; a sign-in
     *     lifts no lock or block and forgets no wrong PIN.
     */
    post: operations['verifyPin'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/accounts/{accountId}/deposits': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * Deposit money
     * @description Pays money into one of the customer's open accounts. An account that is closed,
     *     absent or another customer's is `404 ACCOUNT_NOT_FOUND`. A money send: see
     *     Idempotency in the introduction.
     */
    post: operations['deposit'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/accounts/{accountId}/withdrawals': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * Withdraw money
     * @description Takes money out of one of the customer's open accounts (closed, absent or another
     *     customer's: `404 ACCOUNT_NOT_FOUND`). Needs a step-up authorization for this
     *     withdrawal (`verifyPin` with `operation: withdraw`, this account and this amount:
     *     `401 AUTHORIZATION_INVALID` / `AUTHORIZATION_EXPIRED`, another payment's
     *     `403 AUTHORIZATION_MISMATCH`), spent only when the money moves; the balance never
     *     goes below zero (`422 INSUFFICIENT_FUNDS`) and the money leaving the customer stays
     *     within the daily ceiling (`422 DAILY_LIMIT_EXCEEDED`). A money send: see
     *     Idempotency in the introduction.
     */
    post: operations['withdraw'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/transfers/internal': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * Transfer inside Tidewater
     * @description Moves money from one of the customer's accounts either to another of their own
     *     accounts (`toAccountId`) or to another customer by handle (`toHandle`; the money
     *     lands in that customer's primary account, looked up once per request). Exactly
     *     one of the two. A transfer by handle is money leaving the customer: it needs a
     *     step-up authorization for this transfer (`verifyPin` with
     *     `operation: createInternalTransfer`, this account, amount and handle:
     *     `401 AUTHORIZATION_INVALID` / `AUTHORIZATION_EXPIRED`, another payment's
     *     `403 AUTHORIZATION_MISMATCH`), spent only when the money moves, and counts against
     *     the daily ceiling (`422 DAILY_LIMIT_EXCEEDED`). Errors: `422 INSUFFICIENT_FUNDS`, `422 SAME_ACCOUNT`,
     *     `422 PAYEE_HAS_NO_OPEN_ACCOUNT` (the payee has no open account left),
     *     `404 ACCOUNT_NOT_FOUND` (one of your accounts is closed, absent or not yours),
     *     `404 PAYEE_NOT_FOUND`. By handle, the authorization and the account are checked
     *     before the payee is looked up, so no answer tells whether a handle exists before
     *     the send is authorised; the look-up then counts toward the same per-customer limit
     *     as `getPayee` (`429 TOO_MANY_REQUESTS`, nothing moved, the key not spent).
     *     A money send: see Idempotency in the introduction.
     */
    post: operations['createInternalTransfer'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/transfers/external': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * Transfer to an IBAN
     * @description Sends money from one of the customer's accounts to an external IBAN. Needs a
     *     step-up authorization for this transfer (`verifyPin` with
     *     `operation: createExternalTransfer`, this account, amount, IBAN and beneficiary
     *     name: `401 AUTHORIZATION_INVALID` / `AUTHORIZATION_EXPIRED`, another payment's
     *     `403 AUTHORIZATION_MISMATCH`), spent only when the money moves. Errors:
     *     `422 INVALID_IBAN` (the checksum or the country's length is wrong),
     *     `422 INSUFFICIENT_FUNDS`, `422 DAILY_LIMIT_EXCEEDED`, `404 ACCOUNT_NOT_FOUND`. A
     *     money send: see Idempotency in the introduction.
     */
    post: operations['createExternalTransfer'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/transfers/{transferId}': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * Read a transfer
     * @description A transfer this customer sent, as its `201` answered it (the `id` of
     *     `createInternalTransfer` or `createExternalTransfer`, or the `transferId` of one of
     *     its movements). A transfer that is absent, or that another customer sent (the payee
     *     included), is `404 NOT_FOUND`.
     */
    get: operations['getTransfer'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/payees/{handle}': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * Confirm a payee by handle and the name the payer expects
     * @description Confirmation of payee, as the UK's CoP and the EU's Verification of Payee answer it:
     *     the payer gives the handle and the name they expect to find behind it, and the bank
     *     answers `match`, `close_match` (with the name it holds, so the payer can check it)
     *     or `no_match`. The bank's name for a handle is given only to a payer who already
     *     nearly knew it. A handle nobody has answers `no_match`, exactly as a handle whose
     *     owner has another name: the answer never tells whether a handle exists.
     *
     *     Names are compared after folding case, accents, punctuation and spacing. A match is
     *     the same name; a close match is a name at most two letters away (one when it is
     *     shorter than eight letters), the same words in another order, or initials for the
     *     first names with the same last name (`G Hopper`, `G. M. Hopper` for Grace Murray
     *     Hopper). Each look-up counts toward one limit per customer that sends by handle share:
     *     30 a minute, then `429 TOO_MANY_REQUESTS` with `Retry-After`. Sign-up (`register`)
     *     refuses handles that look like an existing one or like the bank speaking.
     */
    get: operations['getPayee'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/saved-payees': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * The payees the customer has paid
     * @description Saved payees: everyone the customer has paid by handle or by IBAN from any of their
     *     accounts (open or closed), the most recently paid first, at most 20. The list is read
     *     from the customer's own movements, so a payee is there from the first send that
     *     landed, whichever tab, device or client sent it. A payee by handle carries the name
     *     the bank holds for it now (the payer has paid them, as their movements show); run
     *     confirmation of payee (`getPayee`) again when one is picked, before the PIN.
     */
    get: operations['listSavedPayees'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/accounts/{accountId}/statements/{month}': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * Download a monthly statement (CSV or PDF)
     * @description The statement of one calendar month of one of the customer's accounts, made from
     *     the ledger: the bank's name, the account's name and id, the month, the opening
     *     balance (at the month's first instant), every movement of the month oldest first
     *     (time, kind, description, counterparty, amount, balance after it), and the closing
     *     balance (the opening balance plus the month's movements; for the current month,
     *     the balance now). Months begin and end at midnight in the bank's time zone,
     *     **Europe/Amsterdam** (CET/CEST), whatever the client's.
     *
     *     `format=csv` answers `text/csv` (RFC 4180: comma-separated, CRLF line ends, fields
     *     with a comma, a quote or a line break in double quotes, UTF-8). A text field that
     *     a spreadsheet would read as a formula (starting with `=`, `+`, `-`, `@`, a tab or a
     *     carriage return) is written with a leading `'`, so opening the file never runs
     *     anything (OWASP's CSV injection advice). Amounts are signed minor units, as
     *     everywhere in this API. `format=pdf` answers `application/pdf`, one A4 document.
     *     Both come with `Content-Disposition: attachment` and a file name
     *     (`tidewater-<account>-<month>.csv`), and are streamed: the ledger is read first
     *     (an outage is a `503` before any byte of the file), then the file is written out
     *     as it is made.
     *
     *     A month before the account was opened has balances of 0 and no movements; a
     *     month that has not begun yet (Europe/Amsterdam) is `400 VALIDATION_FAILED`.
     *     Another customer's account is `404 ACCOUNT_NOT_FOUND`, exactly like one that
     *     does not exist.
     */
    get: operations['getStatement'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/transactions': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * List an account's movements
     * @description An account's movements, newest first, a page at a time (`nextCursor` is null on
     *     the last page). With `idempotencyKey`, only the movements of the send made with
     *     that key on this account, read from the primary database. An empty list says only
     *     that nothing of that key is on this account now: a send whose answer was lost may
     *     still land, and a refused send never will. To learn a key's outcome, read
     *     `GET /api/idempotency-keys/{key}` or resend the same request with the same key (see
     *     Idempotency). Another customer's account is `404 ACCOUNT_NOT_FOUND`; a cursor
     *     this API did not give out is `400 VALIDATION_FAILED`.
     *
     *     **Search and filters.** `q`, `amountMinor`, `direction`, `from` and `to` narrow the
     *     list; every one given must hold (they combine with AND, and with `idempotencyKey`).
     *     Dates are calendar days in the bank's time zone, **Europe/Amsterdam** (the same days
     *     as the monthly statements). A `from` after `to` is `400 VALIDATION_FAILED`. To page a
     *     filtered list, send the same filters again with `nextCursor`: the cursor marks only a
     *     position (a movement), so the next page is the movements that match the filters
     *     you send, strictly before it.
     */
    get: operations['listTransactions'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/idempotency-keys': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * List the customer's recent keyed sends
     * @description The keyed sends (money sends and keyed account openings) this customer made since
     *     `since` (default: 15 minutes ago; an earlier `since` reads the last 24 hours), newest
     *     first, at most 50, each with its state as `getIdempotencyKey` gives it. The list is
     *     partial: it has no cursor, so 50 keys may leave older ones out, and a window leaves
     *     out what came before it. A key missing here is never proof that its send did not
     *     land: to learn one key's fate, read `GET /api/idempotency-keys/{key}`, and before
     *     sending anything new for a payment whose outcome you do not know, read its key that
     *     way (or resend it with the same key). A client that lost its own record of a send
     *     (cleared storage, another device) finds recent keys here. Read from the primary
     *     database. A `since` that is no instant (a leap second) is `400 VALIDATION_FAILED`.
     */
    get: operations['listIdempotencyKeys'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/idempotency-keys/{key}': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * What the bank holds for one Idempotency-Key
     * @description The state of this customer's key, sending nothing: `inFlight` (a request with it is
     *     being processed, or was and has not landed: sending the same key again is safe),
     *     `landed` (it moved money or opened the account; `answer` is the stored answer, replayed
     *     byte for byte to a re-send, or null when it landed without one), `refused` (its stored
     *     refusal, with `answer`), or `unknown` (the bank holds nothing for it: it never arrived,
     *     or it was refused or failed before anything moved and its key was released, so a
     *     re-send runs it afresh). Keys are per customer: another customer's key is `unknown`.
     *     Read from the primary database.
     */
    get: operations['getIdempotencyKey'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/health': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * Liveness
     * @description The process is up. Does not touch the database.
     */
    get: operations['getHealth'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/ready': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * Readiness
     * @description The database is reachable and has not refused a write for lack of resources (a full disk) within the last Retry-After; `503 SERVICE_UNAVAILABLE` otherwise.
     */
    get: operations['getReady'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
}
export type webhooks = Record<string, never>;
export interface components {
  schemas: {
    /**
     * @description The one list of error codes. The server's error catalog maps each to its status and title.
     * @enum {string}
     */
    ErrorCode:
      | 'VALIDATION_FAILED'
      | 'MALFORMED_JSON'
      | 'PAYLOAD_TOO_LARGE'
      | 'UNSUPPORTED_MEDIA_TYPE'
      | 'HEADERS_TOO_LARGE'
      | 'IDEMPOTENCY_KEY_MISSING'
      | 'UNAUTHENTICATED'
      | 'INVALID_CREDENTIALS'
      | 'TOKEN_INVALID'
      | 'AUTHORIZATION_INVALID'
      | 'AUTHORIZATION_EXPIRED'
      | 'AUTHORIZATION_MISMATCH'
      | 'PIN_INCORRECT'
      | 'PIN_LOCKED'
      | 'PIN_BLOCKED'
      | 'FORBIDDEN'
      | 'NOT_FOUND'
      | 'ACCOUNT_NOT_FOUND'
      | 'PAYEE_NOT_FOUND'
      | 'METHOD_NOT_ALLOWED'
      | 'EMAIL_TAKEN'
      | 'HANDLE_TAKEN'
      | 'IDEMPOTENCY_IN_FLIGHT'
      | 'IDEMPOTENCY_RESULT_UNKNOWN'
      | 'IDEMPOTENCY_KEY_REUSED'
      | 'INSUFFICIENT_FUNDS'
      | 'BALANCE_LIMIT_EXCEEDED'
      | 'DAILY_LIMIT_EXCEEDED'
      | 'INVALID_IBAN'
      | 'SAME_ACCOUNT'
      | 'ACCOUNT_CLOSED'
      | 'ACCOUNT_NOT_EMPTY'
      | 'ACCOUNT_IS_PRIMARY'
      | 'PAYEE_HAS_NO_OPEN_ACCOUNT'
      | 'ACCOUNT_LIMIT_REACHED'
      | 'TOO_MANY_REQUESTS'
      | 'CLIENT_CLOSED_REQUEST'
      | 'INTERNAL'
      | 'SERVICE_UNAVAILABLE';
    /** @description An error, as RFC 9457 problem details. Clients ignore members they do not know. */
    Problem: {
      /**
       * Format: uri-reference
       * @description Identifies the kind of problem.
       */
      type: string;
      /** @description A short, human-readable summary of the kind of problem. */
      title: string;
      /** @description The HTTP status code. */
      status: number;
      /** @description What went wrong with this request, for humans. */
      detail?: string;
      /**
       * Format: uri-reference
       * @description The request that failed.
       */
      instance?: string;
      errorCode: components['schemas']['ErrorCode'];
      /** @description Finds this request in the logs (a W3C trace id, 32 lowercase hex digits); also in the `X-Trace-Id` header. */
      traceId: string;
      /** @description Seconds to wait before trying again (the same as `Retry-After`). */
      retryAfterSeconds?: number;
      /**
       * @description On a money send only. `false`: the server knows nothing moved. `true`: the
       *     send landed. Absent: the outcome is unknown.
       */
      applied?: boolean;
      /**
       * @description On `VALIDATION_FAILED` (RFC 9457 §3.2's extension): each fault of the request,
       *     for a program to show next to its field. A fault of the JSON body has `pointer`,
       *     a JSON Pointer (RFC 6901) into the body as a URI fragment (`#/amountMinor`,
       *     `#` for the body as a whole); one of a parameter names it in `parameter`, one of
       *     a header in `header`.
       */
      errors?: {
        /** @description What is wrong with it, for humans. */
        detail: string;
        /** @description Where in the JSON body: `#/amountMinor`. */
        pointer?: string;
        /** @description The path or query parameter: `limit`. */
        parameter?: string;
        /** @description The header, lower-case: `idempotency-key`. */
        header?: string;
      }[];
    };
    /** @description The problem of a 503; it always says how long to wait. */
    ServiceUnavailableProblem: components['schemas']['Problem'] & {
      /** @enum {integer} */
      status: 503;
      /** @enum {string} */
      errorCode: 'SERVICE_UNAVAILABLE';
      retryAfterSeconds: number;
    };
    /**
     * Format: int64
     * @description A positive amount in euro cents (integer minor units, never a float).
     */
    Money: number;
    /**
     * Format: int64
     * @description A balance in euro cents; never below zero and never above 999,999,999,999,999
     *     (just under 10^15, well inside the integers JSON carries exactly). A send that
     *     would take an account past it is `422 BALANCE_LIMIT_EXCEEDED`.
     */
    Balance: number;
    /**
     * Format: int64
     * @description An amount in euro cents; negative when the money leaves the account.
     */
    SignedMoney: number;
    /**
     * @description Every account is in euros.
     * @enum {string}
     */
    Currency: 'EUR';
    /** @description What the bank holds for one Idempotency-Key of this customer. */
    IdempotencyKeyStatus: {
      key: components['schemas']['IdempotencyKey'];
      /**
       * @description `inFlight`: being processed, or abandoned before it landed (the same key may be
       *     sent again); `landed`: it moved money or opened the account; `refused`: its stored
       *     refusal; `unknown`: nothing is held for this key.
       * @enum {string}
       */
      state: 'inFlight' | 'landed' | 'refused' | 'unknown';
      /** @description The operation the key was first sent to (`deposit`, `withdraw`, `createInternalTransfer`, `createExternalTransfer`, `openAccount`); null when unknown. */
      operationId: string | null;
      /**
       * Format: date-time
       * @description When the bank first received the key; null when unknown.
       */
      claimedAt: string | null;
      /** @description The stored answer a re-send with the key gets (landed or refused); null otherwise. */
      answer: null | components['schemas']['StoredAnswer'];
    };
    /** @description An answer stored with a key, as a re-send replays it. */
    StoredAnswer: {
      status: number;
      /** @description The answer's JSON body (a Transaction, a Transfer, an Account or a problem). */
      body: unknown;
    };
    IdempotencyKeyList: {
      items: components['schemas']['IdempotencyKeyStatus'][];
    };
    /** @description Names one money send (8 to 64 of A-Z a-z 0-9 _ -). */
    IdempotencyKey: string;
    /** @description A customer's public name for receiving transfers. */
    Handle: string;
    /** Format: email */
    Email: string;
    /**
     * @description Text to look for: the Text rule (not blank, no control character), at most 100
     *     characters.
     */
    SearchText: string;
    /**
     * @description Text a customer writes (names, notes), under one rule: not blank, no control
     *     character (NUL included, tabs and line breaks too) and well-formed Unicode (no lone
     *     surrogate: the API refuses one in any string of any body, a rule no regular
     *     expression can say portably); spaces around it are removed before it is stored.
     *     Anything else is `400 VALIDATION_FAILED`, and nothing is stored.
     */
    Text: string;
    AccountName: components['schemas']['Text'];
    /**
     * @description The beneficiary's IBAN, with or without spaces. The schema checks its shape;
     *     the checksum and the country's length are `422 INVALID_IBAN`.
     */
    Iban: string;
    /** @description The name of an IBAN's holder, as the customer writes it (the rule of `Text`). */
    BeneficiaryName: components['schemas']['PersonName'];
    /** @description 4 to 6 digits. */
    Pin: string;
    /** @description The customer's note on a movement (the rule of `Text`). */
    Description: components['schemas']['Text'];
    /** @description A person's name as they write it (the rule of `Text`). */
    PersonName: components['schemas']['Text'];
    /** @description A payee's name as the payer expects it (the rule of `Text`). */
    PayeeName: components['schemas']['Text'];
    /**
     * @description Confirmation of payee's answer. `name` (the name the bank holds) comes with `match`
     *     and `close_match` only; `no_match` never carries one.
     */
    PayeeCheck: {
      /** @enum {string} */
      result: 'match' | 'close_match' | 'no_match';
      name?: string;
    };
    /**
     * @description Someone the customer has paid: by handle (`handle`, and `name` as the bank holds it
     *     now) or by IBAN (`iban`, and `name` as the beneficiary was named on the last send).
     */
    SavedPayee: {
      /** @enum {string} */
      kind: 'handle' | 'iban';
      handle?: components['schemas']['Handle'];
      iban?: string;
      name: string;
      /** Format: date-time */
      lastPaidAt: string;
    };
    SavedPayees: {
      items: components['schemas']['SavedPayee'][];
    };
    User: {
      /** Format: uuid */
      id: string;
      email: components['schemas']['Email'];
      displayName: string;
      handle: components['schemas']['Handle'];
      /**
       * Format: uuid
       * @description Where transfers to the handle land; null when every account is closed.
       */
      primaryAccountId: string | null;
      /** Format: date-time */
      createdAt: string;
    };
    Account: {
      /** Format: uuid */
      id: string;
      name: components['schemas']['AccountName'];
      currency: components['schemas']['Currency'];
      balanceMinor: components['schemas']['Balance'];
      /** @enum {string} */
      status: 'open' | 'closed';
      isPrimary: boolean;
      /** Format: date-time */
      openedAt: string;
      /** Format: date-time */
      closedAt: string | null;
      /** @description The Idempotency-Key the account was opened with; null when it was opened without one (the first account, or `openAccount` without a key). */
      idempotencyKey: string | null;
    };
    AccountList: {
      items: components['schemas']['Account'][];
      /** @description The cursor of the next page; null on the last one. */
      nextCursor: string | null;
    };
    Registration: {
      user: components['schemas']['User'];
      account: components['schemas']['Account'];
    };
    TokenPair: {
      accessToken: string;
      refreshToken: string;
      /** @enum {string} */
      tokenType: 'Bearer';
      /** @description Seconds until the access token expires. */
      expiresIn: number;
      /** @description Seconds until the refresh token expires. */
      refreshExpiresIn: number;
      /** @description Sign-in only (not a refresh). Present it as `deviceToken` at this device's next sign-in. */
      deviceToken?: components['schemas']['DeviceToken'];
    };
    StepUpAuthorization: {
      /** Format: uuid */
      authorizationId: string;
      /** Format: date-time */
      expiresAt: string;
      payment: components['schemas']['ApprovedPayment'];
    };
    /** @description One movement on one account. */
    Transaction: {
      /** Format: uuid */
      id: string;
      /** Format: uuid */
      accountId: string;
      /** @enum {string} */
      kind: 'deposit' | 'withdrawal' | 'transfer_in' | 'transfer_out' | 'external_out';
      amountMinor: components['schemas']['SignedMoney'];
      balanceAfterMinor: components['schemas']['Balance'];
      description: string | null;
      /**
       * @description The other side, for people to read (not to parse), in one of these forms:
       *     `@grace_h` (a transfer to or from another customer, by handle), `Holidays` (the
       *     name of the customer's own account at the time, on a transfer between their
       *     accounts), `Grace Hopper (DE89370400440532013000)` (an external transfer's
       *     beneficiary and IBAN); `null` on a deposit or a withdrawal.
       */
      counterparty: string | null;
      /**
       * @description The display name of the other customer on a transfer by handle (`Grace Hopper` for
       *     `@grace_h`), as the bank knows it when the movements are read: confirmation of payee
       *     in the movements of both sides (adr/0050). `null` on every other movement. Present on
       *     every movement: `listTransactions` reads the name when it lists; a send's own answer
       *     (and its replays) holds the name as it was when the send landed.
       */
      counterpartyName?: string | null;
      idempotencyKey: string | null;
      /** Format: uuid */
      transferId: string | null;
      /** Format: date-time */
      createdAt: string;
    };
    Transfer: {
      /** Format: uuid */
      id: string;
      /** Format: uuid */
      fromAccountId: string;
      /**
       * Format: uuid
       * @description The customer's own account, for a transfer between their accounts.
       */
      toAccountId: string | null;
      toHandle: string | null;
      iban: string | null;
      beneficiaryName: string | null;
      amountMinor: components['schemas']['Money'];
      /** Format: date-time */
      createdAt: string;
      /** @description The movements on the customer's own accounts. */
      movements: components['schemas']['Transaction'][];
    };
    TransactionPage: {
      items: components['schemas']['Transaction'][];
      nextCursor: string | null;
    };
    HealthStatus: {
      /** @enum {string} */
      status: 'ok';
    };
    ReadyStatus: {
      /** @enum {string} */
      status: 'ready';
    };
    RegisterRequest: {
      email: components['schemas']['Email'];
      password: string;
      displayName: components['schemas']['PersonName'];
      handle: components['schemas']['Handle'];
      pin: components['schemas']['Pin'];
    };
    CreateTokenRequest: {
      email: components['schemas']['Email'];
      password: string;
      deviceToken?: components['schemas']['DeviceToken'];
    };
    /**
     * @description The device token an earlier sign-in of this device answered. A live one of this
     *     customer (90 days from its last sign-in) that has not failed a sign-in itself is
     *     never delayed by failures from elsewhere; an unknown or expired one is simply a
     *     device the bank does not know. Keep it like a password: it is the device's, never
     *     sent to anyone but the bank.
     * @example Vx3kP9mQ2sN7wL1cZ6bR3tY5uH0jE2aBf8xD4gK7qW0
     */
    DeviceToken: string;
    RefreshTokenRequest: {
      refreshToken: string;
    };
    AccountNameRequest: {
      name: components['schemas']['AccountName'];
    };
    StepUpRequest: {
      pin: components['schemas']['Pin'];
      payment: components['schemas']['ApprovedPayment'];
    };
    /**
     * @description The one payment a step-up approves (dynamic linking): the send it allows (its
     *     `operationId`), the account the money leaves, the amount and the payee. The send
     *     must match it field for field.
     */
    ApprovedPayment:
      | components['schemas']['ApprovedWithdrawal']
      | components['schemas']['ApprovedHandleTransfer']
      | components['schemas']['ApprovedExternalTransfer'];
    ApprovedWithdrawal: {
      /**
       * @description discriminator enum property added by openapi-typescript
       * @enum {string}
       */
      operation: 'withdraw';
      /** Format: uuid */
      fromAccountId: string;
      amountMinor: components['schemas']['Money'];
    };
    ApprovedHandleTransfer: {
      /**
       * @description discriminator enum property added by openapi-typescript
       * @enum {string}
       */
      operation: 'createInternalTransfer';
      /** Format: uuid */
      fromAccountId: string;
      amountMinor: components['schemas']['Money'];
      toHandle: components['schemas']['Handle'];
    };
    ApprovedExternalTransfer: {
      /**
       * @description discriminator enum property added by openapi-typescript
       * @enum {string}
       */
      operation: 'createExternalTransfer';
      /** Format: uuid */
      fromAccountId: string;
      amountMinor: components['schemas']['Money'];
      iban: components['schemas']['Iban'];
      beneficiaryName: components['schemas']['BeneficiaryName'];
    };
    DepositRequest: {
      amountMinor: components['schemas']['Money'];
      description?: components['schemas']['Description'];
    };
    WithdrawalRequest: {
      amountMinor: components['schemas']['Money'];
      /** Format: uuid */
      authorizationId: string;
      description?: components['schemas']['Description'];
    };
    /** @description Exactly one of `toAccountId` (own account) or `toHandle` (another customer). */
    InternalTransferRequest:
      | components['schemas']['InternalTransferToOwnAccount']
      | components['schemas']['InternalTransferToHandle'];
    InternalTransferToOwnAccount: {
      /** Format: uuid */
      fromAccountId: string;
      /** Format: uuid */
      toAccountId: string;
      amountMinor: components['schemas']['Money'];
      description?: components['schemas']['Description'];
    };
    InternalTransferToHandle: {
      /** Format: uuid */
      fromAccountId: string;
      toHandle: components['schemas']['Handle'];
      amountMinor: components['schemas']['Money'];
      /** Format: uuid */
      authorizationId: string;
      description?: components['schemas']['Description'];
    };
    ExternalTransferRequest: {
      /** Format: uuid */
      fromAccountId: string;
      iban: components['schemas']['Iban'];
      beneficiaryName: components['schemas']['BeneficiaryName'];
      amountMinor: components['schemas']['Money'];
      /** Format: uuid */
      authorizationId: string;
      description?: components['schemas']['Description'];
    };
  };
  responses: {
    /**
     * @description The request is not valid: `VALIDATION_FAILED` (the body, a parameter or a header
     *     breaks the schema), `MALFORMED_JSON`, or `IDEMPOTENCY_KEY_MISSING` (a money send
     *     without an `Idempotency-Key` header).
     */
    BadRequest: {
      headers: {
        [name: string]: unknown;
      };
      content: {
        'application/problem+json': components['schemas']['Problem'];
      };
    };
    /**
     * @description Two different things, told apart by `errorCode` and by `WWW-Authenticate`:
     *     - **the caller**: `UNAUTHENTICATED` (no access token, or an expired or revoked
     *       one: refresh the pair, then send the same request), `INVALID_CREDENTIALS`
     *       (sign-in), `TOKEN_INVALID` (the refresh token no longer works: sign in again;
     *       `error="invalid_token"`);
     *     - **the step-up of a payment**: `AUTHORIZATION_INVALID` / `AUTHORIZATION_EXPIRED`
     *       (unknown, spent, someone else's or too old), with
     *       `error="insufficient_user_authentication"` (RFC 9470): the access token is fine;
     *       check the PIN again and send the same request, same Idempotency-Key, with the new
     *       `authorizationId`. If that answers `422 IDEMPOTENCY_KEY_REUSED`, the key already
     *       holds the outcome of an earlier request of this payment: read it
     *       (`GET /api/idempotency-keys/{key}`) and take that outcome; never send the payment
     *       under a new key. Do not refresh or sign in for these.
     */
    Unauthorized: {
      headers: {
        /**
         * @description The challenge (RFC 9110); its `error` names a step-up to redo or a refresh token that no longer works.
         * @example Bearer realm="tidewater"
         */
        'WWW-Authenticate': string;
        [name: string]: unknown;
      };
      content: {
        /**
         * @example {
         *       "type": "/docs/problems/unauthenticated",
         *       "title": "Sign in to continue",
         *       "status": 401,
         *       "errorCode": "UNAUTHENTICATED",
         *       "traceId": "0af7651916cd43dd8448eb211c80319c"
         *     }
         */
        'application/problem+json': components['schemas']['Problem'];
      };
    };
    /** @description `PIN_INCORRECT` (the PIN is wrong; the attempt counts), `AUTHORIZATION_MISMATCH` (the step-up authorization approves another payment; nothing moved) or `FORBIDDEN`. */
    Forbidden: {
      headers: {
        [name: string]: unknown;
      };
      content: {
        /**
         * @example {
         *       "type": "/docs/problems/pin-incorrect",
         *       "title": "The PIN is not right",
         *       "status": 403,
         *       "errorCode": "PIN_INCORRECT",
         *       "traceId": "0af7651916cd43dd8448eb211c80319c"
         *     }
         */
        'application/problem+json': components['schemas']['Problem'];
      };
    };
    /**
     * @description `ACCOUNT_NOT_FOUND` (also for another customer's account), `PAYEE_NOT_FOUND` or
     *     `NOT_FOUND`. On a money send, the key stores it (see Idempotency).
     */
    NotFound: {
      headers: {
        'Idempotent-Replayed': components['headers']['IdempotentReplayed'];
        [name: string]: unknown;
      };
      content: {
        /**
         * @example {
         *       "type": "/docs/problems/account-not-found",
         *       "title": "Account not found",
         *       "status": 404,
         *       "errorCode": "ACCOUNT_NOT_FOUND",
         *       "traceId": "0af7651916cd43dd8448eb211c80319c"
         *     }
         */
        'application/problem+json': components['schemas']['Problem'];
      };
    };
    /** @description `EMAIL_TAKEN` or `HANDLE_TAKEN`. */
    Conflict: {
      headers: {
        [name: string]: unknown;
      };
      content: {
        /**
         * @example {
         *       "type": "/docs/problems/handle-taken",
         *       "title": "That handle is taken",
         *       "status": 409,
         *       "errorCode": "HANDLE_TAKEN",
         *       "traceId": "0af7651916cd43dd8448eb211c80319c"
         *     }
         */
        'application/problem+json': components['schemas']['Problem'];
      };
    };
    /**
     * @description The Idempotency-Key is known but its answer cannot be given now.
     *     `IDEMPOTENCY_IN_FLIGHT` (with `Retry-After`): the first request with this key is
     *     still being processed; wait that long, then resend the same key.
     *     `IDEMPOTENCY_RESULT_UNKNOWN` with `applied: true`: the send landed but its answer
     *     was lost; never send it again under a new key. Its movements are in
     *     `GET /api/transactions?accountId=…&idempotencyKey=…`; an account opened under the
     *     key is in `GET /api/accounts` with that `idempotencyKey`.
     */
    IdempotencyConflict: {
      headers: {
        /**
         * @description On `IDEMPOTENCY_IN_FLIGHT`, seconds to wait before sending the same key again.
         * @example 1
         */
        'Retry-After'?: number;
        [name: string]: unknown;
      };
      content: {
        'application/problem+json': components['schemas']['Problem'];
      };
    };
    /** @description `PAYLOAD_TOO_LARGE`: the body is larger than the server accepts. */
    PayloadTooLarge: {
      headers: {
        [name: string]: unknown;
      };
      content: {
        /**
         * @example {
         *       "type": "/docs/problems/payload-too-large",
         *       "title": "The request body is too large",
         *       "status": 413,
         *       "errorCode": "PAYLOAD_TOO_LARGE",
         *       "traceId": "0af7651916cd43dd8448eb211c80319c"
         *     }
         */
        'application/problem+json': components['schemas']['Problem'];
      };
    };
    /** @description `UNSUPPORTED_MEDIA_TYPE`: the body is not `application/json`. */
    UnsupportedMediaType: {
      headers: {
        [name: string]: unknown;
      };
      content: {
        /**
         * @example {
         *       "type": "/docs/problems/unsupported-media-type",
         *       "title": "The request body must be JSON",
         *       "status": 415,
         *       "errorCode": "UNSUPPORTED_MEDIA_TYPE",
         *       "traceId": "0af7651916cd43dd8448eb211c80319c"
         *     }
         */
        'application/problem+json': components['schemas']['Problem'];
      };
    };
    /**
     * @description A valid request that the bank's rules refuse: `INSUFFICIENT_FUNDS`,
     *     `BALANCE_LIMIT_EXCEEDED` (the account would hold more than a balance can),
     *     `DAILY_LIMIT_EXCEEDED`, `INVALID_IBAN`, `SAME_ACCOUNT`, `ACCOUNT_CLOSED`,
     *     `ACCOUNT_NOT_EMPTY`, `ACCOUNT_IS_PRIMARY`, `PAYEE_HAS_NO_OPEN_ACCOUNT`,
     *     `ACCOUNT_LIMIT_REACHED` (the customer holds as many open accounts as they may), or
     *     `IDEMPOTENCY_KEY_REUSED` (the key was used with another payload: read the key's
     *     state first, `GET /api/idempotency-keys/{key}`, and never send the same payment
     *     under a new key). On a money send, the key stores every one of these but
     *     `IDEMPOTENCY_KEY_REUSED` (see Idempotency).
     */
    UnprocessableEntity: {
      headers: {
        'Idempotent-Replayed': components['headers']['IdempotentReplayed'];
        [name: string]: unknown;
      };
      content: {
        'application/problem+json': components['schemas']['Problem'];
      };
    };
    /**
     * @description `PIN_LOCKED`: too many wrong PINs in a row; step-up is locked for `Retry-After`
     *     seconds (also `retryAfterSeconds`), each lock of a streak twice as long as the one
     *     before. `PIN_BLOCKED`: the PIN locked too often; step-up is blocked until the
     *     bank unblocks it after checking who the customer is (no `Retry-After`; a sign-in does not lift it).
     */
    Locked: {
      headers: {
        /**
         * @description Seconds until the PIN unlocks (`PIN_LOCKED` only).
         * @example 900
         */
        'Retry-After'?: number;
        [name: string]: unknown;
      };
      content: {
        'application/problem+json': components['schemas']['Problem'];
      };
    };
    /** @description `TOO_MANY_REQUESTS`: slow down; try again after `Retry-After` seconds. */
    TooManyRequests: {
      headers: {
        'Retry-After': components['headers']['RetryAfter'];
        'RateLimit-Policy': components['headers']['RateLimitPolicy'];
        RateLimit: components['headers']['RateLimit'];
        [name: string]: unknown;
      };
      content: {
        /**
         * @example {
         *       "type": "/docs/problems/too-many-requests",
         *       "title": "Too many requests",
         *       "status": 429,
         *       "errorCode": "TOO_MANY_REQUESTS",
         *       "retryAfterSeconds": 60,
         *       "traceId": "0af7651916cd43dd8448eb211c80319c"
         *     }
         */
        'application/problem+json': components['schemas']['Problem'];
      };
    };
    /** @description `INTERNAL`: something unexplained went wrong. The `traceId` finds it in the logs; no internals are shown. */
    InternalError: {
      headers: {
        [name: string]: unknown;
      };
      content: {
        /**
         * @example {
         *       "type": "/docs/problems/internal",
         *       "title": "Something went wrong on our side",
         *       "status": 500,
         *       "errorCode": "INTERNAL",
         *       "traceId": "0af7651916cd43dd8448eb211c80319c"
         *     }
         */
        'application/problem+json': components['schemas']['Problem'];
      };
    };
    /**
     * @description `SERVICE_UNAVAILABLE`: the server gave up within its deadline because the database
     *     refused, hung, dropped the connection, ran out of connections, or the account
     *     stayed busy. Try again after `Retry-After` seconds (also `retryAfterSeconds`).
     *     On a money send, `applied: false` means nothing moved; without it the outcome
     *     is unknown. Either way keep the Idempotency-Key and resend with it, or look it up.
     */
    ServiceUnavailable: {
      headers: {
        'Retry-After': components['headers']['RetryAfter'];
        'Cache-Control': components['headers']['CacheControlNoStore'];
        [name: string]: unknown;
      };
      content: {
        'application/problem+json': components['schemas']['ServiceUnavailableProblem'];
      };
    };
    /**
     * @description Never received: the status the server logs for a request whose client hung up
     *     before the answer was ready (`CLIENT_CLOSED_REQUEST`; nobody is listening, so no
     *     body reaches anyone). Its body is the problem every other error carries, so a
     *     typed client treats it as any error. A hang-up cancels nothing that already
     *     started: on a money send the outcome is unknown (see "A hang-up" under
     *     Idempotency). Set your client's timeout to at least 55 s, above the server's 51 s
     *     bound on every answer.
     */
    ClientClosedRequest: {
      headers: {
        [name: string]: unknown;
      };
      content: {
        /**
         * @example {
         *       "type": "/docs/problems/client-closed-request",
         *       "title": "The client hung up before the answer",
         *       "status": 499,
         *       "errorCode": "CLIENT_CLOSED_REQUEST",
         *       "traceId": "0af7651916cd43dd8448eb211c80319c"
         *     }
         */
        'application/problem+json': components['schemas']['Problem'];
      };
    };
  };
  parameters: {
    /**
     * @description One of the signed-in customer's accounts.
     * @example 3f1c2a9e-6b7d-4c1e-9a3b-2f5e8d7c6b1a
     */
    AccountId: string;
    /**
     * @description Names this money send so that resending it can never move the money twice.
     *     Make one per send (a UUID is fine) and keep it until you know the answer.
     *     Missing: `400 IDEMPOTENCY_KEY_MISSING`. Reused with another payload:
     *     `422 IDEMPOTENCY_KEY_REUSED`.
     * @example 7c9e6679-7425-40de-944b-e07fc1f90ae7
     */
    IdempotencyKey: components['schemas']['IdempotencyKey'];
    /**
     * @description Sandbox only (an API started with `API_SANDBOX=true`; see Sandbox in the
     *     introduction): makes this send meet the named failure on the bank's real path,
     *     with money moved or not as the name says. Any other API ignores it (a value
     *     outside this list is `400 VALIDATION_FAILED` everywhere).
     * @example unavailable-unknown-landed
     */
    Simulate:
      | 'unavailable-not-applied'
      | 'unavailable-unknown-landed'
      | 'unavailable-unknown-not-landed'
      | 'in-flight'
      | 'result-unknown'
      | 'busy';
    /**
     * @description Names this request so that resending it never does it twice (opening an account).
     *     Make one per request (a UUID is fine) and keep it until you know the answer.
     *     Reused with another payload: `422 IDEMPOTENCY_KEY_REUSED`.
     * @example 5b1d8c3e-2f4a-4e6b-9c7d-8a0f1e2d3c4b
     */
    OptionalIdempotencyKey: components['schemas']['IdempotencyKey'];
    /**
     * @description A transfer the signed-in customer sent.
     * @example 9d2f4b6a-1c3e-4a5b-8d7f-0e1a2b3c4d5e
     */
    TransferId: string;
    /**
     * @description The account whose movements to list.
     * @example 3f1c2a9e-6b7d-4c1e-9a3b-2f5e8d7c6b1a
     */
    AccountIdQuery: string;
    /**
     * @description Only the movements of the send made with this Idempotency-Key.
     * @example 7c9e6679-7425-40de-944b-e07fc1f90ae7
     */
    IdempotencyKeyQuery: components['schemas']['IdempotencyKey'];
    /**
     * @description The opaque `nextCursor` of the previous page. A cursor is signed for the list it
     *     was given out for (the account's movements, the customer's accounts), so the
     *     example only shows its shape: every customer's request with it is refused. A cursor
     *     this API did not give out for that list is refused with 400 `VALIDATION_FAILED`
     *     (start again without one).
     * @example WyIyMDI2LTExLTI5VDEwOjE1OjMwLjAwMFoiLCIzZjFjMmE5ZS02YjdkLTRjMWUtOWEzYi0yZjVlOGQ3YzZiMWEiXQ.CJ2KWuoSHQ1eVlyXTrFDiA
     */
    Cursor: string;
    /**
     * @description The largest number of movements on one page.
     * @example 20
     */
    Limit: number;
    /**
     * @description The largest number of accounts on one page.
     * @example 50
     */
    AccountLimit: number;
  };
  requestBodies: never;
  headers: {
    /**
     * @description `true` when this is a money send's (or a keyed account opening's) stored answer to
     *     an earlier request with the same Idempotency-Key and payload, sent again unchanged;
     *     absent on the first answer.
     * @example true
     */
    IdempotentReplayed: 'true';
    /**
     * @description Seconds to wait before trying again.
     * @example 10
     */
    RetryAfter: number;
    /**
     * @description The quota policies that applied to this request (IETF draft "RateLimit header
     *     fields for HTTP", draft-ietf-httpapi-ratelimit-headers-12): a list of
     *     `"name";q=<quota>;w=<window seconds>`. See "Limits" in the introduction for each
     *     policy and what its units are. Absent when no limit applied (a sign-in from a known
     *     device meets none).
     * @example "sign-in-email-address";q=10;w=900, "sign-in-address";q=30;w=900
     */
    RateLimitPolicy: string;
    /**
     * @description What is left of each policy of `RateLimit-Policy` once this request is counted: a
     *     list of `"name";r=<units remaining>;t=<seconds until a unit is given back>`. On a
     *     `429` the refusing policy's `r` is 0 and its `t` is the `Retry-After`.
     * @example "sign-in-email-address";r=9;t=900, "sign-in-address";r=29;t=900
     */
    RateLimit: string;
    /**
     * @description Outage answers are never cached.
     * @example no-store
     */
    CacheControlNoStore: string;
  };
  pathItems: never;
}
export type $defs = Record<string, never>;
export interface operations {
  register: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        /**
         * @example {
         *       "email": "ada@example.com",
         *       "password": "correct horse battery",
         *       "displayName": "Ada Lovelace",
         *       "handle": "ada_l",
         *       "pin": "4821"
         *     }
         */
        'application/json': components['schemas']['RegisterRequest'];
      };
    };
    responses: {
      /** @description The customer and their first account. */
      201: {
        headers: {
          'RateLimit-Policy': components['headers']['RateLimitPolicy'];
          RateLimit: components['headers']['RateLimit'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Registration'];
        };
      };
      400: components['responses']['BadRequest'];
      409: components['responses']['Conflict'];
      413: components['responses']['PayloadTooLarge'];
      415: components['responses']['UnsupportedMediaType'];
      429: components['responses']['TooManyRequests'];
      499: components['responses']['ClientClosedRequest'];
      500: components['responses']['InternalError'];
      503: components['responses']['ServiceUnavailable'];
    };
  };
  createToken: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        /**
         * @example {
         *       "email": "ada@example.com",
         *       "password": "correct horse battery"
         *     }
         */
        'application/json': components['schemas']['CreateTokenRequest'];
      };
    };
    responses: {
      /** @description A new token pair. */
      200: {
        headers: {
          'RateLimit-Policy': components['headers']['RateLimitPolicy'];
          RateLimit: components['headers']['RateLimit'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['TokenPair'];
        };
      };
      400: components['responses']['BadRequest'];
      401: components['responses']['Unauthorized'];
      413: components['responses']['PayloadTooLarge'];
      415: components['responses']['UnsupportedMediaType'];
      429: components['responses']['TooManyRequests'];
      499: components['responses']['ClientClosedRequest'];
      500: components['responses']['InternalError'];
      503: components['responses']['ServiceUnavailable'];
    };
  };
  refreshToken: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        /**
         * @example {
         *       "refreshToken": "rt_8Qm2vX7kP4sN9wL1cZ6bR3tY5uH0jE"
         *     }
         */
        'application/json': components['schemas']['RefreshTokenRequest'];
      };
    };
    responses: {
      /** @description A new, rotated token pair. */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['TokenPair'];
        };
      };
      400: components['responses']['BadRequest'];
      401: components['responses']['Unauthorized'];
      413: components['responses']['PayloadTooLarge'];
      415: components['responses']['UnsupportedMediaType'];
      499: components['responses']['ClientClosedRequest'];
      500: components['responses']['InternalError'];
      503: components['responses']['ServiceUnavailable'];
    };
  };
  revokeToken: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        /**
         * @example {
         *       "refreshToken": "rt_8Qm2vX7kP4sN9wL1cZ6bR3tY5uH0jE"
         *     }
         */
        'application/json': components['schemas']['RefreshTokenRequest'];
      };
    };
    responses: {
      /** @description The token is revoked (or was never valid). */
      204: {
        headers: {
          [name: string]: unknown;
        };
        content?: never;
      };
      400: components['responses']['BadRequest'];
      413: components['responses']['PayloadTooLarge'];
      415: components['responses']['UnsupportedMediaType'];
      499: components['responses']['ClientClosedRequest'];
      500: components['responses']['InternalError'];
      503: components['responses']['ServiceUnavailable'];
    };
  };
  logout: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Every refresh token of the customer is revoked. */
      204: {
        headers: {
          [name: string]: unknown;
        };
        content?: never;
      };
      400: components['responses']['BadRequest'];
      401: components['responses']['Unauthorized'];
      499: components['responses']['ClientClosedRequest'];
      500: components['responses']['InternalError'];
      503: components['responses']['ServiceUnavailable'];
    };
  };
  getMe: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description The customer. */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['User'];
        };
      };
      400: components['responses']['BadRequest'];
      401: components['responses']['Unauthorized'];
      499: components['responses']['ClientClosedRequest'];
      500: components['responses']['InternalError'];
      503: components['responses']['ServiceUnavailable'];
    };
  };
  listAccounts: {
    parameters: {
      query?: {
        /**
         * @description The opaque `nextCursor` of the previous page. A cursor is signed for the list it
         *     was given out for (the account's movements, the customer's accounts), so the
         *     example only shows its shape: every customer's request with it is refused. A cursor
         *     this API did not give out for that list is refused with 400 `VALIDATION_FAILED`
         *     (start again without one).
         * @example WyIyMDI2LTExLTI5VDEwOjE1OjMwLjAwMFoiLCIzZjFjMmE5ZS02YjdkLTRjMWUtOWEzYi0yZjVlOGQ3YzZiMWEiXQ.CJ2KWuoSHQ1eVlyXTrFDiA
         */
        cursor?: components['parameters']['Cursor'];
        /**
         * @description The largest number of accounts on one page.
         * @example 50
         */
        limit?: components['parameters']['AccountLimit'];
      };
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description A page of the customer's accounts. */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['AccountList'];
        };
      };
      400: components['responses']['BadRequest'];
      401: components['responses']['Unauthorized'];
      499: components['responses']['ClientClosedRequest'];
      500: components['responses']['InternalError'];
      503: components['responses']['ServiceUnavailable'];
    };
  };
  openAccount: {
    parameters: {
      query?: never;
      header?: {
        /**
         * @description Names this request so that resending it never does it twice (opening an account).
         *     Make one per request (a UUID is fine) and keep it until you know the answer.
         *     Reused with another payload: `422 IDEMPOTENCY_KEY_REUSED`.
         * @example 5b1d8c3e-2f4a-4e6b-9c7d-8a0f1e2d3c4b
         */
        'Idempotency-Key'?: components['parameters']['OptionalIdempotencyKey'];
      };
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        /**
         * @example {
         *       "name": "Holidays"
         *     }
         */
        'application/json': components['schemas']['AccountNameRequest'];
      };
    };
    responses: {
      /** @description The new account (or, for a key already used with this name, the account it opened, as it was then). */
      201: {
        headers: {
          'Idempotent-Replayed': components['headers']['IdempotentReplayed'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Account'];
        };
      };
      400: components['responses']['BadRequest'];
      401: components['responses']['Unauthorized'];
      409: components['responses']['IdempotencyConflict'];
      413: components['responses']['PayloadTooLarge'];
      415: components['responses']['UnsupportedMediaType'];
      422: components['responses']['UnprocessableEntity'];
      499: components['responses']['ClientClosedRequest'];
      500: components['responses']['InternalError'];
      503: components['responses']['ServiceUnavailable'];
    };
  };
  getAccount: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        /**
         * @description One of the signed-in customer's accounts.
         * @example 3f1c2a9e-6b7d-4c1e-9a3b-2f5e8d7c6b1a
         */
        accountId: components['parameters']['AccountId'];
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description The account. */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Account'];
        };
      };
      400: components['responses']['BadRequest'];
      401: components['responses']['Unauthorized'];
      404: components['responses']['NotFound'];
      499: components['responses']['ClientClosedRequest'];
      500: components['responses']['InternalError'];
      503: components['responses']['ServiceUnavailable'];
    };
  };
  renameAccount: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        /**
         * @description One of the signed-in customer's accounts.
         * @example 3f1c2a9e-6b7d-4c1e-9a3b-2f5e8d7c6b1a
         */
        accountId: components['parameters']['AccountId'];
      };
      cookie?: never;
    };
    requestBody: {
      content: {
        /**
         * @example {
         *       "name": "Rainy day"
         *     }
         */
        'application/json': components['schemas']['AccountNameRequest'];
      };
    };
    responses: {
      /** @description The renamed account. */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Account'];
        };
      };
      400: components['responses']['BadRequest'];
      401: components['responses']['Unauthorized'];
      404: components['responses']['NotFound'];
      413: components['responses']['PayloadTooLarge'];
      415: components['responses']['UnsupportedMediaType'];
      499: components['responses']['ClientClosedRequest'];
      500: components['responses']['InternalError'];
      503: components['responses']['ServiceUnavailable'];
    };
  };
  closeAccount: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        /**
         * @description One of the signed-in customer's accounts.
         * @example 3f1c2a9e-6b7d-4c1e-9a3b-2f5e8d7c6b1a
         */
        accountId: components['parameters']['AccountId'];
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description The closed account. */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Account'];
        };
      };
      400: components['responses']['BadRequest'];
      401: components['responses']['Unauthorized'];
      404: components['responses']['NotFound'];
      422: components['responses']['UnprocessableEntity'];
      499: components['responses']['ClientClosedRequest'];
      500: components['responses']['InternalError'];
      503: components['responses']['ServiceUnavailable'];
    };
  };
  setPrimaryAccount: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        /**
         * @description One of the signed-in customer's accounts.
         * @example 3f1c2a9e-6b7d-4c1e-9a3b-2f5e8d7c6b1a
         */
        accountId: components['parameters']['AccountId'];
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description The new primary account. */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Account'];
        };
      };
      400: components['responses']['BadRequest'];
      401: components['responses']['Unauthorized'];
      404: components['responses']['NotFound'];
      422: components['responses']['UnprocessableEntity'];
      499: components['responses']['ClientClosedRequest'];
      500: components['responses']['InternalError'];
      503: components['responses']['ServiceUnavailable'];
    };
  };
  verifyPin: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        /**
         * @example {
         *       "pin": "4821",
         *       "payment": {
         *         "operation": "createInternalTransfer",
         *         "fromAccountId": "3f1c2a9e-6b7d-4c1e-9a3b-2f5e8d7c6b1a",
         *         "amountMinor": 1850,
         *         "toHandle": "grace_h"
         *       }
         *     }
         */
        'application/json': components['schemas']['StepUpRequest'];
      };
    };
    responses: {
      /** @description A single-use authorization for the payment it names. */
      201: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['StepUpAuthorization'];
        };
      };
      400: components['responses']['BadRequest'];
      401: components['responses']['Unauthorized'];
      403: components['responses']['Forbidden'];
      413: components['responses']['PayloadTooLarge'];
      415: components['responses']['UnsupportedMediaType'];
      422: components['responses']['UnprocessableEntity'];
      423: components['responses']['Locked'];
      429: components['responses']['TooManyRequests'];
      499: components['responses']['ClientClosedRequest'];
      500: components['responses']['InternalError'];
      503: components['responses']['ServiceUnavailable'];
    };
  };
  deposit: {
    parameters: {
      query?: never;
      header: {
        /**
         * @description Names this money send so that resending it can never move the money twice.
         *     Make one per send (a UUID is fine) and keep it until you know the answer.
         *     Missing: `400 IDEMPOTENCY_KEY_MISSING`. Reused with another payload:
         *     `422 IDEMPOTENCY_KEY_REUSED`.
         * @example 7c9e6679-7425-40de-944b-e07fc1f90ae7
         */
        'Idempotency-Key': components['parameters']['IdempotencyKey'];
        /**
         * @description Sandbox only (an API started with `API_SANDBOX=true`; see Sandbox in the
         *     introduction): makes this send meet the named failure on the bank's real path,
         *     with money moved or not as the name says. Any other API ignores it (a value
         *     outside this list is `400 VALIDATION_FAILED` everywhere).
         * @example unavailable-unknown-landed
         */
        'Tidewater-Simulate'?: components['parameters']['Simulate'];
      };
      path: {
        /**
         * @description One of the signed-in customer's accounts.
         * @example 3f1c2a9e-6b7d-4c1e-9a3b-2f5e8d7c6b1a
         */
        accountId: components['parameters']['AccountId'];
      };
      cookie?: never;
    };
    requestBody: {
      content: {
        /**
         * @example {
         *       "amountMinor": 2500,
         *       "description": "Birthday money"
         *     }
         */
        'application/json': components['schemas']['DepositRequest'];
      };
    };
    responses: {
      /** @description The deposit's movement on the account. */
      201: {
        headers: {
          'Idempotent-Replayed': components['headers']['IdempotentReplayed'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Transaction'];
        };
      };
      400: components['responses']['BadRequest'];
      401: components['responses']['Unauthorized'];
      404: components['responses']['NotFound'];
      409: components['responses']['IdempotencyConflict'];
      413: components['responses']['PayloadTooLarge'];
      415: components['responses']['UnsupportedMediaType'];
      422: components['responses']['UnprocessableEntity'];
      499: components['responses']['ClientClosedRequest'];
      500: components['responses']['InternalError'];
      503: components['responses']['ServiceUnavailable'];
    };
  };
  withdraw: {
    parameters: {
      query?: never;
      header: {
        /**
         * @description Names this money send so that resending it can never move the money twice.
         *     Make one per send (a UUID is fine) and keep it until you know the answer.
         *     Missing: `400 IDEMPOTENCY_KEY_MISSING`. Reused with another payload:
         *     `422 IDEMPOTENCY_KEY_REUSED`.
         * @example 7c9e6679-7425-40de-944b-e07fc1f90ae7
         */
        'Idempotency-Key': components['parameters']['IdempotencyKey'];
        /**
         * @description Sandbox only (an API started with `API_SANDBOX=true`; see Sandbox in the
         *     introduction): makes this send meet the named failure on the bank's real path,
         *     with money moved or not as the name says. Any other API ignores it (a value
         *     outside this list is `400 VALIDATION_FAILED` everywhere).
         * @example unavailable-unknown-landed
         */
        'Tidewater-Simulate'?: components['parameters']['Simulate'];
      };
      path: {
        /**
         * @description One of the signed-in customer's accounts.
         * @example 3f1c2a9e-6b7d-4c1e-9a3b-2f5e8d7c6b1a
         */
        accountId: components['parameters']['AccountId'];
      };
      cookie?: never;
    };
    requestBody: {
      content: {
        /**
         * @example {
         *       "amountMinor": 4000,
         *       "authorizationId": "c2b1a0f9-8e7d-4c6b-a5f4-e3d2c1b0a9f8",
         *       "description": "Cash for the market"
         *     }
         */
        'application/json': components['schemas']['WithdrawalRequest'];
      };
    };
    responses: {
      /** @description The withdrawal's movement on the account. */
      201: {
        headers: {
          'Idempotent-Replayed': components['headers']['IdempotentReplayed'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Transaction'];
        };
      };
      400: components['responses']['BadRequest'];
      401: components['responses']['Unauthorized'];
      403: components['responses']['Forbidden'];
      404: components['responses']['NotFound'];
      409: components['responses']['IdempotencyConflict'];
      413: components['responses']['PayloadTooLarge'];
      415: components['responses']['UnsupportedMediaType'];
      422: components['responses']['UnprocessableEntity'];
      499: components['responses']['ClientClosedRequest'];
      500: components['responses']['InternalError'];
      503: components['responses']['ServiceUnavailable'];
    };
  };
  createInternalTransfer: {
    parameters: {
      query?: never;
      header: {
        /**
         * @description Names this money send so that resending it can never move the money twice.
         *     Make one per send (a UUID is fine) and keep it until you know the answer.
         *     Missing: `400 IDEMPOTENCY_KEY_MISSING`. Reused with another payload:
         *     `422 IDEMPOTENCY_KEY_REUSED`.
         * @example 7c9e6679-7425-40de-944b-e07fc1f90ae7
         */
        'Idempotency-Key': components['parameters']['IdempotencyKey'];
        /**
         * @description Sandbox only (an API started with `API_SANDBOX=true`; see Sandbox in the
         *     introduction): makes this send meet the named failure on the bank's real path,
         *     with money moved or not as the name says. Any other API ignores it (a value
         *     outside this list is `400 VALIDATION_FAILED` everywhere).
         * @example unavailable-unknown-landed
         */
        'Tidewater-Simulate'?: components['parameters']['Simulate'];
      };
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': components['schemas']['InternalTransferRequest'];
      };
    };
    responses: {
      /** @description The transfer with both of its movements. */
      201: {
        headers: {
          'Idempotent-Replayed': components['headers']['IdempotentReplayed'];
          'RateLimit-Policy': components['headers']['RateLimitPolicy'];
          RateLimit: components['headers']['RateLimit'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Transfer'];
        };
      };
      400: components['responses']['BadRequest'];
      401: components['responses']['Unauthorized'];
      403: components['responses']['Forbidden'];
      404: components['responses']['NotFound'];
      409: components['responses']['IdempotencyConflict'];
      413: components['responses']['PayloadTooLarge'];
      415: components['responses']['UnsupportedMediaType'];
      422: components['responses']['UnprocessableEntity'];
      429: components['responses']['TooManyRequests'];
      499: components['responses']['ClientClosedRequest'];
      500: components['responses']['InternalError'];
      503: components['responses']['ServiceUnavailable'];
    };
  };
  createExternalTransfer: {
    parameters: {
      query?: never;
      header: {
        /**
         * @description Names this money send so that resending it can never move the money twice.
         *     Make one per send (a UUID is fine) and keep it until you know the answer.
         *     Missing: `400 IDEMPOTENCY_KEY_MISSING`. Reused with another payload:
         *     `422 IDEMPOTENCY_KEY_REUSED`.
         * @example 7c9e6679-7425-40de-944b-e07fc1f90ae7
         */
        'Idempotency-Key': components['parameters']['IdempotencyKey'];
        /**
         * @description Sandbox only (an API started with `API_SANDBOX=true`; see Sandbox in the
         *     introduction): makes this send meet the named failure on the bank's real path,
         *     with money moved or not as the name says. Any other API ignores it (a value
         *     outside this list is `400 VALIDATION_FAILED` everywhere).
         * @example unavailable-unknown-landed
         */
        'Tidewater-Simulate'?: components['parameters']['Simulate'];
      };
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        /**
         * @example {
         *       "fromAccountId": "3f1c2a9e-6b7d-4c1e-9a3b-2f5e8d7c6b1a",
         *       "iban": "DE89370400440532013000",
         *       "beneficiaryName": "Grace Hopper",
         *       "amountMinor": 25000,
         *       "authorizationId": "c2b1a0f9-8e7d-4c6b-a5f4-e3d2c1b0a9f8",
         *       "description": "Rent November"
         *     }
         */
        'application/json': components['schemas']['ExternalTransferRequest'];
      };
    };
    responses: {
      /** @description The transfer with its outgoing movement. */
      201: {
        headers: {
          'Idempotent-Replayed': components['headers']['IdempotentReplayed'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Transfer'];
        };
      };
      400: components['responses']['BadRequest'];
      401: components['responses']['Unauthorized'];
      403: components['responses']['Forbidden'];
      404: components['responses']['NotFound'];
      409: components['responses']['IdempotencyConflict'];
      413: components['responses']['PayloadTooLarge'];
      415: components['responses']['UnsupportedMediaType'];
      422: components['responses']['UnprocessableEntity'];
      499: components['responses']['ClientClosedRequest'];
      500: components['responses']['InternalError'];
      503: components['responses']['ServiceUnavailable'];
    };
  };
  getTransfer: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        /**
         * @description A transfer the signed-in customer sent.
         * @example 9d2f4b6a-1c3e-4a5b-8d7f-0e1a2b3c4d5e
         */
        transferId: components['parameters']['TransferId'];
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description The transfer with its movements on the sender's accounts. */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Transfer'];
        };
      };
      400: components['responses']['BadRequest'];
      401: components['responses']['Unauthorized'];
      404: components['responses']['NotFound'];
      499: components['responses']['ClientClosedRequest'];
      500: components['responses']['InternalError'];
      503: components['responses']['ServiceUnavailable'];
    };
  };
  getPayee: {
    parameters: {
      query: {
        /**
         * @description The payee's name as the payer expects it (the rule of `Text`), percent-encoded or
         *     form-encoded (`Grace+Hopper` is `Grace Hopper`).
         * @example Grace Hopper
         */
        name: components['schemas']['PayeeName'];
      };
      header?: never;
      path: {
        /** @example grace_h */
        handle: components['schemas']['Handle'];
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description How the name the payer gave compares with the one the bank holds. */
      200: {
        headers: {
          'RateLimit-Policy': components['headers']['RateLimitPolicy'];
          RateLimit: components['headers']['RateLimit'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['PayeeCheck'];
        };
      };
      400: components['responses']['BadRequest'];
      401: components['responses']['Unauthorized'];
      429: components['responses']['TooManyRequests'];
      499: components['responses']['ClientClosedRequest'];
      500: components['responses']['InternalError'];
      503: components['responses']['ServiceUnavailable'];
    };
  };
  listSavedPayees: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description The payees, most recently paid first. */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['SavedPayees'];
        };
      };
      400: components['responses']['BadRequest'];
      401: components['responses']['Unauthorized'];
      499: components['responses']['ClientClosedRequest'];
      500: components['responses']['InternalError'];
      503: components['responses']['ServiceUnavailable'];
    };
  };
  getStatement: {
    parameters: {
      query: {
        /**
         * @description `csv` (text/csv) or `pdf` (application/pdf).
         * @example csv
         */
        format: 'csv' | 'pdf';
      };
      header?: never;
      path: {
        /**
         * @description One of the signed-in customer's accounts.
         * @example 3f1c2a9e-6b7d-4c1e-9a3b-2f5e8d7c6b1a
         */
        accountId: components['parameters']['AccountId'];
        /**
         * @description The calendar month, `YYYY-MM` (years 1970 to 2999).
         * @example 2026-11
         */
        month: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description The statement, as a file to save. */
      200: {
        headers: {
          /**
           * @description `attachment`, with the file name.
           * @example attachment; filename="tidewater-everyday-2026-11.csv"
           */
          'Content-Disposition': string;
          [name: string]: unknown;
        };
        content: {
          /**
           * @example Bank,Tidewater
           *     Account,Everyday,3f1c2a9e-6b7d-4c1e-9a3b-2f5e8d7c6b1a
           *     Month,2026-11,Europe/Amsterdam
           *     Opening balance,EUR,120000
           *
           *     Date,Kind,Description,Counterparty,Amount (minor),Balance after (minor)
           *     2026-11-03T09:15:30.000+01:00,deposit,Salary,,250000,370000
           *     2026-11-05T18:02:11.000+01:00,transfer_out,'=rent split,'@grace_h,-90000,280000
           *
           *     Closing balance,EUR,280000
           */
          'text/csv': string;
          /** @example %PDF-1.3 … (an A4 document, binary) */
          'application/pdf': string;
        };
      };
      400: components['responses']['BadRequest'];
      401: components['responses']['Unauthorized'];
      404: components['responses']['NotFound'];
      499: components['responses']['ClientClosedRequest'];
      500: components['responses']['InternalError'];
      503: components['responses']['ServiceUnavailable'];
    };
  };
  listTransactions: {
    parameters: {
      query: {
        /**
         * @description The account whose movements to list.
         * @example 3f1c2a9e-6b7d-4c1e-9a3b-2f5e8d7c6b1a
         */
        accountId: components['parameters']['AccountIdQuery'];
        /**
         * @description Only the movements of the send made with this Idempotency-Key.
         * @example 7c9e6679-7425-40de-944b-e07fc1f90ae7
         */
        idempotencyKey?: components['parameters']['IdempotencyKeyQuery'];
        /**
         * @description The opaque `nextCursor` of the previous page. A cursor is signed for the list it
         *     was given out for (the account's movements, the customer's accounts), so the
         *     example only shows its shape: every customer's request with it is refused. A cursor
         *     this API did not give out for that list is refused with 400 `VALIDATION_FAILED`
         *     (start again without one).
         * @example WyIyMDI2LTExLTI5VDEwOjE1OjMwLjAwMFoiLCIzZjFjMmE5ZS02YjdkLTRjMWUtOWEzYi0yZjVlOGQ3YzZiMWEiXQ.CJ2KWuoSHQ1eVlyXTrFDiA
         */
        cursor?: components['parameters']['Cursor'];
        /**
         * @description The largest number of movements on one page.
         * @example 20
         */
        limit?: components['parameters']['Limit'];
        /**
         * @description Only movements whose description or counterparty contains this text, ignoring
         *     case (`%` and `_` are plain characters). Spaces around it are ignored; the Text
         *     rule applies (no control character, not blank).
         * @example rent
         */
        q?: components['schemas']['SearchText'];
        /**
         * @description Only movements of exactly this amount in minor units, in or out (`1250` finds a deposit of 12.50 and a withdrawal of 12.50).
         * @example 1250
         */
        amountMinor?: number;
        /**
         * @description `in`: only money that came in (deposits, transfers received); `out`: only money that left.
         * @example out
         */
        direction?: 'in' | 'out';
        /**
         * @description Only movements on or after this day (Europe/Amsterdam; a day the calendar has, so `2026-02-30` or year `0000` is `400 VALIDATION_FAILED`).
         * @example 2026-11-01
         */
        from?: string;
        /**
         * @description Only movements on or before this day (Europe/Amsterdam), the whole day included; a day the calendar has.
         * @example 2026-11-30
         */
        to?: string;
      };
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description A page of movements. */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['TransactionPage'];
        };
      };
      400: components['responses']['BadRequest'];
      401: components['responses']['Unauthorized'];
      404: components['responses']['NotFound'];
      499: components['responses']['ClientClosedRequest'];
      500: components['responses']['InternalError'];
      503: components['responses']['ServiceUnavailable'];
    };
  };
  listIdempotencyKeys: {
    parameters: {
      query?: {
        /**
         * @description Only keys first claimed at or after this instant (default 15 minutes ago; never more than 24 hours ago).
         * @example 2026-12-05T09:00:00Z
         */
        since?: string;
      };
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description The recent keys, newest first. */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['IdempotencyKeyList'];
        };
      };
      400: components['responses']['BadRequest'];
      401: components['responses']['Unauthorized'];
      499: components['responses']['ClientClosedRequest'];
      500: components['responses']['InternalError'];
      503: components['responses']['ServiceUnavailable'];
    };
  };
  getIdempotencyKey: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        /**
         * @description The Idempotency-Key the send carried.
         * @example 7c9e6679-7425-40de-944b-e07fc1f90ae7
         */
        key: components['schemas']['IdempotencyKey'];
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description The key's state. */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['IdempotencyKeyStatus'];
        };
      };
      400: components['responses']['BadRequest'];
      401: components['responses']['Unauthorized'];
      499: components['responses']['ClientClosedRequest'];
      500: components['responses']['InternalError'];
      503: components['responses']['ServiceUnavailable'];
    };
  };
  getHealth: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Alive. */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['HealthStatus'];
        };
      };
      400: components['responses']['BadRequest'];
      499: components['responses']['ClientClosedRequest'];
      500: components['responses']['InternalError'];
      503: components['responses']['ServiceUnavailable'];
    };
  };
  getReady: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Ready to serve. */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ReadyStatus'];
        };
      };
      400: components['responses']['BadRequest'];
      499: components['responses']['ClientClosedRequest'];
      500: components['responses']['InternalError'];
      503: components['responses']['ServiceUnavailable'];
    };
  };
}
