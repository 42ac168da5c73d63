/**
 * Bearer authentication for secured operations: a valid access token whose session (its
 * refresh family, `fam`) is still alive; anything else is 401 UNAUTHENTICATED with a
 * WWW-Authenticate challenge. The scheme is matched case-insensitively (RFC 9110 §11.1:
 * `bearer` is `Bearer`).
 *
 * A session's liveness is cached per process (liveSessions.ts, adr/0064): a signed-out
 * session's tokens die within ACCESS_TOKEN_RECHECK_SECONDS, at once on the process that
 * signed it out. A user who does not exist has no live session.
 */
import type { Request } from 'express';
import type { AccessClaims } from '../contract/operations.ts';
import type { AccessTokens } from '../domain/identity/accessTokens.ts';
import type { LiveSessions } from '../domain/identity/liveSessions.ts';
import { ApiProblem } from '../errors/apiProblem.ts';

const bearer = /^bearer +([A-Za-z0-9._~+/-]+=*)$/i;

/** The authenticator of the router: verifies the token, then that its session is alive. */
export function bearerAuthentication(tokens: AccessTokens, sessions: Pick<LiveSessions, 'isAlive'>) {
  return async function authenticate(req: Request): Promise<AccessClaims> {
    const match = bearer.exec(req.get('authorization') ?? '');
    const claims = match ? await tokens.verify(match[1]!) : undefined;
    if (!claims) throw new ApiProblem('UNAUTHENTICATED', 'A valid bearer access token is required.');
    if (!(await sessions.isAlive(claims.familyId))) {
      throw new ApiProblem('UNAUTHENTICATED', 'The session of this token has ended (signed out, or its refresh token was revoked or used twice). Sign in again.');
    }
    return claims;
  };
}
