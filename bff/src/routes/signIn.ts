/**
 * The end of a successful sign-in or sign-up: a new session id and a new CSRF token (so
 * neither an id planted nor a token seen before sign-in is worth anything after it; the
 * SPA reads the new token from `GET /bff/session`), with the tokens and the customer in
 * it, saved before the answer is sent. A previous sign-in on the same
 * browser is replaced, its refresh token revoked. If the store fails, the fresh
 * refresh token is revoked in the background (nobody will ever present it) and the
 * visitor is told to try again.
 */
import type { Request, Response } from 'express';
import type { BffDeps } from '../deps.ts';
import { dropCookieCsrfToken, newCsrfToken } from '../http/csrf.ts';
import { answerUnavailable, traceIdOf } from '../http/problem.ts';
import { regenerateSession, saveSession, type IssuedTokens, type User } from '../session/sessionData.ts';
import { revokeWithApi } from '../upstream/tokenCalls.ts';

/** Stores the signed-in session; false (and the 503 sent) when the store failed. */
export async function startSignedInSession(
  req: Request,
  res: Response,
  deps: BffDeps,
  tokens: IssuedTokens,
  user: User,
): Promise<boolean> {
  // Someone already signed in on this browser: their refresh token will never be used again.
  const previousRefreshToken = req.session.auth?.refreshToken;
  try {
    const session = await regenerateSession(req);
    session.auth = { ...tokens, user };
    session.csrfToken = newCsrfToken();
    session.lastActiveAt = Date.now();
    await saveSession(session);
    dropCookieCsrfToken(res, deps.config);
    if (previousRefreshToken) abandonTokens(req, res, deps, previousRefreshToken);
    return true;
  } catch (error) {
    req.log.warn({ err: error }, 'the session store failed at sign-in');
    abandonTokens(req, res, deps, tokens.refreshToken);
    answerUnavailable(
      res,
      'We could not sign you in just now. Please try again in a moment.',
      deps.config.retryAfterSeconds,
    );
    return false;
  }
}

/** Revokes a refresh token no session will hold, in the background, best effort. */
export function abandonTokens(
  req: Request,
  res: Response,
  { api, config }: BffDeps,
  refreshToken: string,
): void {
  void revokeWithApi(api, refreshToken, traceIdOf(res), config.revokeTimeoutMs).then((outcome) => {
    if (outcome.kind !== 'revoked')
      req.log.warn({ detail: outcome.detail }, 'could not revoke an abandoned refresh token');
  });
}
