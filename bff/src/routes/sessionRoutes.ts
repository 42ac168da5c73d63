/**
 * `GET /bff/session`: the visitor's session state and CSRF token. A visitor who is not
 * signed in gets no session (nothing is written: adr/0043); their token is their CSRF
 * cookie's, made on first sight (http/csrf.ts). It does not slide a signed-in session's
 * inactivity timer, so a page that only polls it still times out.
 *
 * `POST /bff/session/keepalive` (CSRF-checked): the same answer, and a signed-in
 * session's timer slides.
 */
import { Router, type Response } from 'express';
import type { BffDeps } from '../deps.ts';
import { cookieCsrfToken, issueCookieCsrfToken, newCsrfToken } from '../http/csrf.ts';
import { answerUnavailable } from '../http/problem.ts';
import { isSignedIn, saveSession, type LoadedSession } from '../session/sessionData.ts';
import { sessionState } from '../session/sessionView.ts';

/** The two session routes. */
export function sessionRoutes({ config }: BffDeps): Router {
  const router = Router();

  async function answer(res: Response, session: LoadedSession, save: boolean, csrfToken?: string): Promise<void> {
    if (save) {
      try {
        await saveSession(session);
      } catch (error) {
        res.req.log.warn({ err: error }, 'the session store failed');
        answerUnavailable(
          res,
          'We could not reach your session just now. Please try again in a moment.',
          config.retryAfterSeconds,
        );
        return;
      }
    }
    res.setHeader('Cache-Control', 'no-store');
    res.status(200).json(sessionState(session, config, csrfToken));
  }

  router.get('/bff/session', async (req, res) => {
    const session = req.session;
    if (!isSignedIn(session)) {
      // An anonymous session kept from an ended sign-in still has its token; else the cookie's.
      const token = session.csrfToken ?? cookieCsrfToken(req, config) ?? issueCookieCsrfToken(res, config);
      return answer(res, session, false, token);
    }
    const isNew = !session.csrfToken;
    if (isNew) session.csrfToken = newCsrfToken();
    await answer(res, session, isNew);
  });

  router.post('/bff/session/keepalive', async (req, res) => {
    if (!isSignedIn(req.session)) return answer(res, req.session, false, req.session.csrfToken ?? cookieCsrfToken(req, config));
    req.session.lastActiveAt = Date.now();
    await answer(res, req.session, true);
  });

  return router;
}
