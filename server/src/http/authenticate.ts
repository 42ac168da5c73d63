/**
 * Bearer authentication for secured operations: a valid access token that names a user
 * who exists; anything else is 401 UNAUTHENTICATED with a WWW-Authenticate challenge.
 * The scheme is matched case-insensitively (RFC 9110 §11.1: `bearer` is `Bearer`).
 *
 * Users are never deleted, so a user once found is remembered for the process's life
 * (up to 100,000, then the memory starts again): one look-up per user, not per request.
 */
import type { Request } from 'express';
import type { AccessClaims } from '../contract/operations.ts';
import type { AccessTokens } from '../domain/identity/accessTokens.ts';
import { ApiProblem } from '../errors/apiProblem.ts';

const bearer = /^bearer +([A-Za-z0-9._~+/-]+=*)$/i;
const rememberedAtMost = 100_000;

/** The authenticator of the router: verifies the token, then that its user exists. */
export function bearerAuthentication(tokens: AccessTokens, userExists: (userId: string) => Promise<boolean>) {
  const known = new Set<string>();
  return async function authenticate(req: Request): Promise<AccessClaims> {
    const match = bearer.exec(req.get('authorization') ?? '');
    const claims = match ? await tokens.verify(match[1]!) : undefined;
    if (!claims) throw new ApiProblem('UNAUTHENTICATED', 'A valid bearer access token is required.');
    if (!known.has(claims.userId)) {
      if (!(await userExists(claims.userId))) throw new ApiProblem('UNAUTHENTICATED', 'The signed-in user no longer exists.');
      if (known.size >= rememberedAtMost) known.clear();
      known.add(claims.userId);
    }
    return claims;
  };
}
