/**
 * `GET /bff/session`: the visitor's session state, creating an anonymous session (and its
 * CSRF token) on first sight. It does not slide a signed-in session's inactivity timer,
 * so a page that only polls it still times out; an anonymous session's cookie is kept
 * alive by it, so a visitor who reads the sign-in form for a while can still send it.
 *
 * `POST /bff/session/keepalive` (CSRF-checked): the same answer, and the timer slides.
 */
import { Router, type Response } from 'express';
import type { BffDeps } from '../deps.ts';
import { newCsrfToken } from '../http/csrf.ts';
import { answerUnavailable } from '../http/problem.ts';
import { isSignedIn, saveSession, type LoadedSession } from '../session/sessionData.ts';
import { sessionState } from '../session/sessionView.ts';

/** The two session routes. */
export function sessionRoutes({ config }: BffDeps): Router {
  const router = Router();

  async function answer(res: Response, session: LoadedSession, save: boolean): Promise<void> {
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
    res.status(200).json(sessionState(session, config));
  }

  router.get('/bff/session', async (req, res) => {
    const session = req.session;
    const isNew = !session.csrfToken;
    if (isNew) session.csrfToken = newCsrfToken();
    const anonymous = !isSignedIn(session);
    if (anonymous) session.lastActiveAt = Date.now();
    await answer(res, session, isNew || anonymous);
  });

  router.post('/bff/session/keepalive', async (req, res) => {
    req.session.lastActiveAt = Date.now();
    await answer(res, req.session, true);
  });

  return router;
}
