/**
 * CSRF protection by a synchronizer token (OWASP's primary defence for server-side
 * sessions): each session holds one random token, handed to the SPA by `GET /bff/session`;
 * every state-changing request must carry it in `X-CSRF-Token`. Compared in constant time.
 * Missing or wrong: 403 FORBIDDEN, and nothing is done. SameSite=Strict on the cookie is
 * the second line, not the only one.
 */
import { randomBytes, timingSafeEqual } from 'node:crypto';
import type { Request, RequestHandler } from 'express';
import { answerProblem } from './problem.ts';

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

/** True when the request changes state and carries no valid token for its session. */
export function csrfRefused(req: Request): boolean {
  if (safeMethods.has(req.method)) return false;
  return !csrfTokensMatch(req.session?.csrfToken, req.headers[csrfHeader]);
}

/** Refuses a state-changing request without the session's token (403 FORBIDDEN). */
export function requireCsrfToken(): RequestHandler {
  return (req, res, next) => {
    if (!csrfRefused(req)) return next();
    answerProblem(res, 'FORBIDDEN', 'This request needs the X-CSRF-Token header from GET /bff/session.');
  };
}
