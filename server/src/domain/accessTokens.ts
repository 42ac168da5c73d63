/**
 * Bearer access tokens: short-lived HS256 JWTs naming the user (`sub`) and the refresh
 * family they came from (`fam`, so logout can revoke that family's siblings too).
 */
import { SignJWT, jwtVerify } from 'jose';
import type { AccessClaims } from '../contract/operations.ts';

const issuer = 'tidewater-api';
/** Users are named by UUIDs; a token naming anything else is no token of ours. */
const uuid = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Signs and verifies access tokens with one secret. */
export function accessTokens(secret: string, ttlSeconds: number) {
  const key = new TextEncoder().encode(secret);
  return {
    ttlSeconds,
    /** A new access token for the user. */
    async issue(claims: AccessClaims): Promise<string> {
      return new SignJWT({ fam: claims.familyId })
        .setProtectedHeader({ alg: 'HS256' })
        .setSubject(claims.userId)
        .setIssuer(issuer)
        .setIssuedAt()
        .setExpirationTime(`${ttlSeconds}s`)
        .sign(key);
    },
    /** The claims of a valid token, or undefined for any invalid or expired one. */
    async verify(token: string): Promise<AccessClaims | undefined> {
      try {
        const { payload } = await jwtVerify(token, key, { issuer, algorithms: ['HS256'] });
        if (typeof payload.sub !== 'string' || !uuid.test(payload.sub) || typeof payload.fam !== 'string') return undefined;
        return { userId: payload.sub, familyId: payload.fam };
      } catch {
        return undefined;
      }
    },
  };
}

/** The access-token service's type. */
export type AccessTokens = ReturnType<typeof accessTokens>;
