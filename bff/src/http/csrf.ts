/**
 * CSRF protection by a synchronizer token (OWASP's primary defence for server-side
 * sessions): each signed-in session holds one random token, handed to the SPA by
 * `GET /bff/session`; every state-changing request must carry it in `X-CSRF-Token`.
 * Compared in constant time. Missing or wrong: 403 FORBIDDEN, and nothing is done.
 * SameSite=Strict on the cookie is the second line, not the only one.
 *
 * A visitor who is not signed in has no session (no row for a visit that keeps nothing,
 * adr/0043): their token lives in a signed cookie of its own (`__Host-tw_csrf`, OWASP's
 * signed double-submit cookie), good for signing in or up. Sign-in makes the session's
 * own token and drops that cookie, so a token seen before sign-in is worth nothing after.
 */
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import type { Request, RequestHandler, Response } from 'express';
import type { BffConfig } from '../config.ts';
import { cookieName, cookieOptions, readCookie, type CookieConfig } from './cookies.ts';
import { answerProblem } from './problem.ts';

/** What the visitor's CSRF cookie needs: its name's rule and the key that signs it. */
export type CsrfConfig = CookieConfig & Pick<BffConfig, 'sessionSecret'>;

/** The header the SPA sends the token in. */
const csrfHeader = 'x-csrf-token';

/** Methods that change nothing and need no token. */
const safeMethods = new Set(['GET', 'HEAD', 'OPTIONS']);

/** A new token: 256 random bits, base64url. */
export function newCsrfToken(): string {
  return randomBytes(32).toString('base64url');
}

/** True when `presented` equals `expected`, in time that does not depend on where they differ. */
export function csrfTokensMatch(expected: string | undefined, presented: unknown): boolean {
  if (typeof expected !== 'string' || expected === '' || typeof presented !== 'string') return false;
  const a = Buffer.from(expected, 'utf8');
  const b = Buffer.from(presented, 'utf8');
  return a.length === b.length && timingSafeEqual(a, b);
}

function signatureOf(token: string, config: CsrfConfig): string {
  return createHmac('sha256', config.sessionSecret).update(`csrf:${token}`).digest('base64url');
}

/** The token of the visitor's CSRF cookie when its signature holds, else undefined. */
export function cookieCsrfToken(req: Request, config: CsrfConfig): string | undefined {
  const [token, signature, extra] = (readCookie(req, cookieName('tw_csrf', config)) ?? '').split('.');
  if (!token || extra !== undefined || !csrfTokensMatch(signatureOf(token, config), signature)) return undefined;
  return token;
}

/** A new token for a visitor who is not signed in, set in their CSRF cookie (it ends with the browser session). */
export function issueCookieCsrfToken(res: Response, config: CsrfConfig): string {
  const token = newCsrfToken();
  res.cookie(cookieName('tw_csrf', config), `${token}.${signatureOf(token, config)}`, cookieOptions(config));
  return token;
}

/** Drops the visitor's CSRF cookie (sign-in: the session has its own token now). */
export function dropCookieCsrfToken(res: Response, config: CsrfConfig): void {
  res.clearCookie(cookieName('tw_csrf', config), cookieOptions(config));
}

/** The token the request must carry: its session's, or, with none, its CSRF cookie's. */
function expectedCsrfToken(req: Request, config: CsrfConfig): string | undefined {
  return req.session?.csrfToken ?? cookieCsrfToken(req, config);
}

/** True when the request changes state and carries no valid token for its session. */
export function csrfRefused(req: Request, config: CsrfConfig): boolean {
  if (safeMethods.has(req.method)) return false;
  return !csrfTokensMatch(expectedCsrfToken(req, config), req.headers[csrfHeader]);
}

/** Refuses a state-changing request without the session's token (403 FORBIDDEN). */
export function requireCsrfToken(config: CsrfConfig): RequestHandler {
  return (req, res, next) => {
    if (!csrfRefused(req, config)) return next();
    answerProblem(res, 'FORBIDDEN', 'This request needs the X-CSRF-Token header from GET /bff/session.');
  };
}
