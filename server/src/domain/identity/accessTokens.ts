/**
 * Bearer access tokens: short-lived HS256 JWTs naming the user (`sub`) and the refresh
 * family they came from (`fam`, so logout can revoke that family's siblings too).
 *
 * Verifying is on every request, so (adr/0016) the HMAC key is imported once, and a token
 * that verified is remembered until its own `exp` (at most ACCESS_TOKEN_CACHE_ENTRIES,
 * oldest first out): the same bytes verify the same way until they expire, so the cache
 * answers exactly what jose would. It is per process and needs no sharing.
 */
import { SignJWT, jwtVerify } from 'jose';
import type { AccessClaims } from '../../contract/operations.ts';

const issuer = 'tidewater-api';
/** Users are named by UUIDs; a token naming anything else is no token of ours. */
const uuid = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Signs and verifies access tokens with one secret. */
export function accessTokens(secret: string, ttlSeconds: number, cacheEntries: number) {
  const raw = new TextEncoder().encode(secret);
  const key = crypto.subtle.importKey('raw', raw, { name: 'HMAC', hash: 'SHA-256' }, false, ['sign', 'verify']);
  const verified = new Map<string, { claims: AccessClaims; expiresAtMs: number }>();

  function remember(token: string, claims: AccessClaims, exp: number | undefined): void {
    if (cacheEntries <= 0 || exp === undefined) return;
    if (verified.size >= cacheEntries) verified.delete(verified.keys().next().value!);
    verified.set(token, { claims, expiresAtMs: exp * 1000 });
  }

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
        .sign(await key);
    },
    /** The claims of a valid token, or undefined for any invalid or expired one. */
    async verify(token: string): Promise<AccessClaims | undefined> {
      const known = verified.get(token);
      // jose refuses a token once now ≥ exp; so does the cache.
      if (known && Date.now() < known.expiresAtMs) return known.claims;
      if (known) verified.delete(token);
      try {
        const { payload } = await jwtVerify(token, await key, { issuer, algorithms: ['HS256'] });
        if (typeof payload.sub !== 'string' || !uuid.test(payload.sub) || typeof payload.fam !== 'string') return undefined;
        const claims = { userId: payload.sub, familyId: payload.fam };
        remember(token, claims, payload.exp);
        return claims;
      } catch {
        return undefined;
      }
    },
  };
}

/** The access-token service's type. */
export type AccessTokens = ReturnType<typeof accessTokens>;
