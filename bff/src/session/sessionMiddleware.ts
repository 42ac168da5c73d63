/**
 * The session cookie: `__Host-tw_session` (`tw_session` on a BFF that is explicitly
 * local: bff/src/http/cookies.ts), HttpOnly (no script reads it), SameSite=Strict (no
 * other site sends it), Secure, signed, and holding nothing but the session id. It is
 * re-sent only when the session is saved (not `rolling`), which is exactly when the
 * inactivity timer slides. Cookie and store row live for the retention time (30 min),
 * longer than the inactivity timeout (15 min), which the BFF enforces itself
 * (idleTimeout.ts): so a session that timed out is still found, ended and its refresh
 * token revoked. A session is created only when something is put in it
 * (`saveUninitialized: false`): a visitor who is not signed in has none (their CSRF token
 * is a cookie: bff/src/http/csrf.ts).
 *
 * A store that fails or hangs is an outage, not a sign-out: 503, and the cookie is kept.
 */
import type { RequestHandler } from 'express';
import session from 'express-session';
import type { BffConfig } from '../config.ts';
import { cookieName, cookieOptions, type CookieConfig } from '../http/cookies.ts';
import { answerUnavailable } from '../http/problem.ts';
import { noteUnavailable } from '../metrics.ts';
import type { SessionStore } from './sessionStore.ts';

/** The cookie's name (the SPA never reads it; tests and operators do). */
export function sessionCookieName(config: CookieConfig): string {
  return cookieName('tw_session', config);
}

/** The session middleware, with store failures answered as 503. */
export function sessionMiddleware(config: BffConfig, sessionStore: SessionStore): RequestHandler {
  const handler = session({
    name: sessionCookieName(config),
    secret: config.sessionSecret,
    store: sessionStore.store,
    resave: false,
    saveUninitialized: false,
    rolling: false,
    cookie: { ...cookieOptions(config), maxAge: config.sessionRetentionMs },
  });
  return (req, res, next) =>
    handler(req, res, (error?: unknown) => {
      if (error === undefined || error === null) return next();
      req.log?.warn({ err: error }, 'the session store failed; answering 503');
      noteUnavailable(res, 'session_store');
      answerUnavailable(
        res,
        'We could not reach your session just now. Please try again in a moment.',
        config.retryAfterSeconds,
      );
    });
}
