/**
 * The inactivity timeout: a signed-in session unused for SESSION_IDLE_TIMEOUT_MS is signed
 * out before anything else looks at it. Its tokens are dropped (the session stays, with
 * its CSRF token, as an anonymous one), and its refresh token, never to be used again, is
 * revoked at the API in the background, best effort. What counts as use is decided by the
 * routes: keep-alive and proxied requests slide the timer, `GET /bff/session` does not.
 */
import type { RequestHandler } from 'express';
import type { BffDeps } from '../deps.ts';
import { answerUnavailable, traceIdOf } from '../http/problem.ts';
import { revokeWithApi } from '../upstream/tokenCalls.ts';
import { isSignedIn, saveSession, type LoadedSession } from './sessionData.ts';

/** True when a signed-in session has been idle for the timeout or longer. */
export function idleTooLong(
  lastActiveAt: number | undefined,
  idleTimeoutMs: number,
  now = Date.now(),
): boolean {
  return now - (lastActiveAt ?? 0) >= idleTimeoutMs;
}

/** Signs out idle sessions. */
export function endIdleSessions({ config, api }: BffDeps): RequestHandler {
  return async (req, res, next) => {
    const session = req.session;
    if (!isSignedIn(session) || !idleTooLong(session.lastActiveAt, config.sessionIdleTimeoutMs))
      return next();
    const { refreshToken } = session.auth;
    const idleForMs = Date.now() - (session.lastActiveAt ?? 0);
    delete (session as LoadedSession).auth;
    session.lastActiveAt = Date.now();
    try {
      await saveSession(session);
    } catch (error) {
      req.log.warn({ err: error }, 'the session store failed while ending an idle session');
      answerUnavailable(
        res,
        'We could not reach your session just now. Please try again in a moment.',
        config.retryAfterSeconds,
      );
      return;
    }
    req.log.info({ idleForMs }, 'the session ended after inactivity');
    const traceId = traceIdOf(res);
    void revokeWithApi(api, refreshToken, traceId, config.revokeTimeoutMs).then((outcome) => {
      if (outcome.kind !== 'revoked')
        req.log.warn({ detail: outcome.detail }, "could not revoke the idle session's refresh token");
    });
    next();
  };
}
