// DO NOT EDIT: generated from spec/bff.yaml by spec/scripts/generate.mjs (npm run generate).

export interface paths {
  '/bff/session': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * The visitor's session
     * @description Whether the visitor is signed in, who they are, the CSRF token for their writes
     *     and the inactivity timeout. A visitor who is not signed in gets no session (nothing
     *     is stored): their CSRF token is set in its signed cookie (`__Host-tw_csrf`) on first
     *     sight and stays theirs. Does not slide a signed-in session's inactivity timer.
     */
    get: operations['getSession'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/bff/session/keepalive': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * Keep the session alive
     * @description The same answer as `GET /bff/session`, and the inactivity timer starts again
     *     (the SPA calls it while the visitor is active without calling the API).
     */
    post: operations['keepSessionAlive'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/bff/register': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * Sign up and sign in
     * @description Creates the customer (the API's `register`), signs them in (the API's
     *     `createToken`) and starts a signed-in session under a new session id. The API's
     *     refusals pass through as they are (`409 EMAIL_TAKEN`, `409 HANDLE_TAKEN`, `400`,
     *     `413`, `415`, and `429 TOO_MANY_REQUESTS` when sign-ups are limited). A 503 says what is known: either nothing answered the sign-up
     *     (the account may or may not exist: try signing in in a moment), or the account
     *     was created but the sign-in failed (sign in).
     */
    post: operations['registerVisitor'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/bff/login': {
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
     * @description Checks the email and password with the API (`createToken`), reads the customer
     *     (`getMe`, 5 s) and starts a signed-in session under a new session id; the CSRF
     *     token stays the same. The API's refusals pass through as they are
     *     (`401 INVALID_CREDENTIALS`, `429 TOO_MANY_REQUESTS`, `400`).
     */
    post: operations['signIn'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/bff/logout': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * Sign out
     * @description Revokes the session's refresh token at the API (5 s), ends the session and
     *     clears the cookie. If the API cannot revoke it (no answer, a 5xx), the visitor
     *     is NOT signed out: 503 "We couldn't sign you out. You're still signed in." An
     *     anonymous session simply ends.
     */
    post: operations['signOut'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/bff/health': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * Liveness
     * @description The BFF process answers. Touches neither the API nor the session store.
     */
    get: operations['getBffHealth'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/bff/ready': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * Readiness
     * @description The API's `/api/ready` answers 200 and the session store answers, each within
     *     3 s; otherwise `503 SERVICE_UNAVAILABLE` naming which one is not ready.
     */
    get: operations['getBffReady'];
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
    /** @description The visitor's session as the SPA sees it. */
    SessionState: {
      /** @description Whether a customer is signed in. */
      authenticated: boolean;
      /** @description The signed-in customer; null when nobody is. */
      user: components['schemas']['User'] | null;
      /** @description Send it as `X-CSRF-Token` on every write. Stays the same for the session's life, across sign-in. */
      csrfToken: string;
      /** @description The inactivity timeout (mirror it in the SPA). */
      idleTimeoutSeconds: number;
      /** @description Seconds until a signed-in session ends unless it is used; null when nobody is signed in. */
      idleExpiresInSeconds: number | null;
    };
    /** @description The answer of a successful sign-in. */
    SignedIn: {
      user: components['schemas']['User'];
    };
    /** Format: email */
    Email: string;
    /** @description A customer's public name for receiving transfers. */
    Handle: string;
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
     * @description Text a customer writes (names, notes), under one rule: not blank, no control
     *     character (NUL included, tabs and line breaks too) and well-formed Unicode (no lone
     *     surrogate: the API refuses one in any string of any body, a rule no regular
     *     expression can say portably); spaces around it are removed before it is stored.
     *     Anything else is `400 VALIDATION_FAILED`, and nothing is stored.
     */
    Text: string;
    /** @description A person's name as they write it (the rule of `Text`). */
    PersonName: components['schemas']['Text'];
    /** @description 4 to 6 digits. */
    Pin: string;
    RegisterRequest: {
      email: components['schemas']['Email'];
      password: string;
      displayName: components['schemas']['PersonName'];
      handle: components['schemas']['Handle'];
      pin: components['schemas']['Pin'];
    };
    AccountName: components['schemas']['Text'];
    /**
     * @description Every account is in euros.
     * @enum {string}
     */
    Currency: 'EUR';
    /**
     * Format: int64
     * @description A balance in euro cents; never below zero and never above 999,999,999,999,999
     *     (just under 10^15, well inside the integers JSON carries exactly). A send that
     *     would take an account past it is `422 BALANCE_LIMIT_EXCEEDED`.
     */
    Balance: number;
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
    Registration: {
      user: components['schemas']['User'];
      account: components['schemas']['Account'];
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
    CreateTokenRequest: {
      email: components['schemas']['Email'];
      password: string;
      deviceToken?: components['schemas']['DeviceToken'];
    };
    HealthStatus: {
      /** @enum {string} */
      status: 'ok';
    };
    ReadyStatus: {
      /** @enum {string} */
      status: 'ready';
    };
  };
  responses: {
    /**
     * @description `VALIDATION_FAILED` (a query parameter on a BFF route, which takes none; a body
     *     that is not a JSON object; or the API's own validation of a sign-up or sign-in
     *     body) or `MALFORMED_JSON`.
     */
    BadRequest: {
      headers: {
        [name: string]: unknown;
      };
      content: {
        'application/problem+json': components['schemas']['Problem'];
      };
    };
    /** @description `INVALID_CREDENTIALS`: the email or password is not right (the answer does not say which). From the API. */
    Unauthorized: {
      headers: {
        [name: string]: unknown;
      };
      content: {
        /**
         * @example {
         *       "type": "/docs/problems/invalid-credentials",
         *       "title": "The email or password is not right",
         *       "status": 401,
         *       "errorCode": "INVALID_CREDENTIALS",
         *       "traceId": "0af7651916cd43dd8448eb211c80319c"
         *     }
         */
        'application/problem+json': components['schemas']['Problem'];
      };
    };
    /** @description `FORBIDDEN`: the `X-CSRF-Token` header is missing or is not the session's token. Nothing was done. */
    CsrfForbidden: {
      headers: {
        [name: string]: unknown;
      };
      content: {
        /**
         * @example {
         *       "type": "/docs/problems/forbidden",
         *       "title": "Not allowed",
         *       "status": 403,
         *       "detail": "This request needs the X-CSRF-Token header from GET /bff/session.",
         *       "errorCode": "FORBIDDEN",
         *       "traceId": "0af7651916cd43dd8448eb211c80319c"
         *     }
         */
        'application/problem+json': components['schemas']['Problem'];
      };
    };
    /** @description `EMAIL_TAKEN` or `HANDLE_TAKEN`. From the API. */
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
    /** @description `PAYLOAD_TOO_LARGE`: the body is larger than 100 kB. */
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
         *       "detail": "Send the body as application/json.",
         *       "errorCode": "UNSUPPORTED_MEDIA_TYPE",
         *       "traceId": "0af7651916cd43dd8448eb211c80319c"
         *     }
         */
        'application/problem+json': components['schemas']['Problem'];
      };
    };
    /** @description `TOO_MANY_REQUESTS`: too many sign-in attempts; try again after `Retry-After` seconds. From the API. */
    TooManyRequests: {
      headers: {
        'Retry-After': components['headers']['RetryAfter'];
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
     * @description `SERVICE_UNAVAILABLE`: the BFF got no answer from the API within its wait, could
     *     not reach it, or could not reach its session store (or the API answered its own
     *     503, passed through). Try again after `Retry-After` seconds (also
     *     `retryAfterSeconds`). Never `applied` from the BFF itself. Never a sign-out.
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
     * @description Client Closed Request: the visitor hung up before the answer was ready. The BFF
     *     aborts its call to the API and logs the request with its trace id; nobody is
     *     listening, so no body reaches anyone. Its shape is every error's problem, so a
     *     typed client handles it as any error.
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
  parameters: never;
  requestBodies: never;
  headers: {
    /**
     * @description Seconds to wait before trying again.
     * @example 10
     */
    RetryAfter: number;
    /**
     * @description Outage answers are never cached.
     * @example no-store
     */
    CacheControlNoStore: string;
    /**
     * @description The session cookie, when it is new or its inactivity timer slid. A new session
     *     id at sign-in and sign-up.
     * @example __Host-tw_session=s%3AqZ4vX7kP4sN9wL1cZ6bR3tY5uH0jE2aB.Jf8x...; Path=/; Expires=Sun, 29 Nov 2026 10:30:30 GMT; HttpOnly; Secure; SameSite=Strict
     */
    SetSessionCookie: string;
    /**
     * @description Clears the session cookie.
     * @example __Host-tw_session=; Path=/; Expires=Thu, 01 Jan 1970 00:00:00 GMT; HttpOnly; Secure; SameSite=Strict
     */
    ClearSessionCookie: string;
  };
  pathItems: never;
}
export type $defs = Record<string, never>;
export interface operations {
  getSession: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description The session. */
      200: {
        headers: {
          'Set-Cookie': components['headers']['SetSessionCookie'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['SessionState'];
        };
      };
      400: components['responses']['BadRequest'];
      499: components['responses']['ClientClosedRequest'];
      500: components['responses']['InternalError'];
      503: components['responses']['ServiceUnavailable'];
    };
  };
  keepSessionAlive: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description The session, its timer slid. */
      200: {
        headers: {
          'Set-Cookie': components['headers']['SetSessionCookie'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['SessionState'];
        };
      };
      400: components['responses']['BadRequest'];
      403: components['responses']['CsrfForbidden'];
      499: components['responses']['ClientClosedRequest'];
      500: components['responses']['InternalError'];
      503: components['responses']['ServiceUnavailable'];
    };
  };
  registerVisitor: {
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
      /** @description The customer and their first account; the session is signed in. */
      201: {
        headers: {
          'Set-Cookie': components['headers']['SetSessionCookie'];
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "user": {
           *         "id": "9b2d7c1e-4f3a-4e8b-a1c2-5d6e7f8a9b0c",
           *         "email": "ada@example.com",
           *         "displayName": "Ada Lovelace",
           *         "handle": "ada_l",
           *         "primaryAccountId": "3f1c2a9e-6b7d-4c1e-9a3b-2f5e8d7c6b1a",
           *         "createdAt": "2026-11-29T10:15:30Z"
           *       },
           *       "account": {
           *         "id": "3f1c2a9e-6b7d-4c1e-9a3b-2f5e8d7c6b1a",
           *         "name": "Everyday",
           *         "currency": "EUR",
           *         "balanceMinor": 0,
           *         "status": "open",
           *         "isPrimary": true,
           *         "openedAt": "2026-11-29T10:15:30Z",
           *         "closedAt": null,
           *         "idempotencyKey": null
           *       }
           *     }
           */
          'application/json': components['schemas']['Registration'];
        };
      };
      400: components['responses']['BadRequest'];
      403: components['responses']['CsrfForbidden'];
      409: components['responses']['Conflict'];
      413: components['responses']['PayloadTooLarge'];
      415: components['responses']['UnsupportedMediaType'];
      429: components['responses']['TooManyRequests'];
      499: components['responses']['ClientClosedRequest'];
      500: components['responses']['InternalError'];
      503: components['responses']['ServiceUnavailable'];
    };
  };
  signIn: {
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
      /** @description Signed in. */
      200: {
        headers: {
          'Set-Cookie': components['headers']['SetSessionCookie'];
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "user": {
           *         "id": "9b2d7c1e-4f3a-4e8b-a1c2-5d6e7f8a9b0c",
           *         "email": "ada@example.com",
           *         "displayName": "Ada Lovelace",
           *         "handle": "ada_l",
           *         "primaryAccountId": "3f1c2a9e-6b7d-4c1e-9a3b-2f5e8d7c6b1a",
           *         "createdAt": "2026-11-29T10:15:30Z"
           *       }
           *     }
           */
          'application/json': components['schemas']['SignedIn'];
        };
      };
      400: components['responses']['BadRequest'];
      401: components['responses']['Unauthorized'];
      403: components['responses']['CsrfForbidden'];
      413: components['responses']['PayloadTooLarge'];
      415: components['responses']['UnsupportedMediaType'];
      429: components['responses']['TooManyRequests'];
      499: components['responses']['ClientClosedRequest'];
      500: components['responses']['InternalError'];
      503: components['responses']['ServiceUnavailable'];
    };
  };
  signOut: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Signed out; the cookie is cleared. */
      204: {
        headers: {
          'Set-Cookie': components['headers']['ClearSessionCookie'];
          [name: string]: unknown;
        };
        content?: never;
      };
      400: components['responses']['BadRequest'];
      403: components['responses']['CsrfForbidden'];
      499: components['responses']['ClientClosedRequest'];
      500: components['responses']['InternalError'];
      503: components['responses']['ServiceUnavailable'];
    };
  };
  getBffHealth: {
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
          /**
           * @example {
           *       "status": "ok"
           *     }
           */
          'application/json': components['schemas']['HealthStatus'];
        };
      };
      400: components['responses']['BadRequest'];
      499: components['responses']['ClientClosedRequest'];
      500: components['responses']['InternalError'];
      503: components['responses']['ServiceUnavailable'];
    };
  };
  getBffReady: {
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
          /**
           * @example {
           *       "status": "ready"
           *     }
           */
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
