/**
 * `POST /bff/logout` (CSRF-checked): revokes the session's refresh token at the API (5 s),
 * then ends the session and clears the cookie: 204. If the revoke gets no answer or a
 * 5xx, the visitor is NOT signed out and is told so (503, "You're still signed in"): a
 * sign-out that only forgot the cookie would leave a live refresh token behind while
 * claiming success. An anonymous session simply ends.
 */
import { Router } from 'express';
import type { BffDeps } from '../deps.ts';
import { cookieOptions } from '../http/cookies.ts';
import { answerUnavailable, traceIdOf } from '../http/problem.ts';
import { destroySession, isSignedIn } from '../session/sessionData.ts';
import { sessionCookieName } from '../session/sessionMiddleware.ts';
import { revokeWithApi } from '../upstream/tokenCalls.ts';

/** The sentence of a sign-out that did not happen. */
const stillSignedIn = "We couldn't sign you out. You're still signed in.";

/** The sign-out route. */
export function logoutRoute({ api, config }: BffDeps): Router {
  const router = Router();

  router.post('/bff/logout', async (req, res) => {
    const session = req.session;
    if (isSignedIn(session)) {
      const outcome = await revokeWithApi(
        api,
        session.auth.refreshToken,
        traceIdOf(res),
        config.revokeTimeoutMs,
      );
      if (outcome.kind !== 'revoked') {
        req.log.warn({ detail: outcome.detail }, 'sign-out refused: the refresh token could not be revoked');
        return answerUnavailable(res, stillSignedIn, config.retryAfterSeconds);
      }
    }
    try {
      await destroySession(session);
    } catch (error) {
      req.log.warn({ err: error }, 'sign-out refused: the session store failed');
      return answerUnavailable(res, stillSignedIn, config.retryAfterSeconds);
    }
    res.clearCookie(sessionCookieName(config), cookieOptions(config));
    res.setHeader('Cache-Control', 'no-store');
    res.status(204).end();
  });

  return router;
}
