/**
 * Bearer authentication for secured operations: a valid access token names the user;
 * anything else is 401 UNAUTHENTICATED with a WWW-Authenticate challenge.
 */
import type { Request } from 'express';
import type { AccessClaims, AccessTokens } from '../domain/accessTokens.ts';
import { ApiProblem } from './apiProblem.ts';

/** Verifies the request's bearer token; throws 401 when it is missing or invalid. */
export async function authenticate(req: Request, tokens: AccessTokens): Promise<AccessClaims> {
  const header = req.get('authorization') ?? '';
  const match = /^Bearer ([A-Za-z0-9._~+/-]+=*)$/.exec(header);
  const claims = match ? await tokens.verify(match[1]!) : undefined;
  if (!claims) throw new ApiProblem('UNAUTHENTICATED', 'A valid bearer access token is required.');
  return claims;
}
