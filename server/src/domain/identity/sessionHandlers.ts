/**
 * Sign-in and its tokens: `createToken` checks the password (limited: signInLimits.ts) and issues an access token
 * with a rotating refresh token (stored only as its hash) and the device token the client
 * presents at its next sign-in (knownDevices.ts); `refreshToken` rotates it within
 * the family's absolute lifetime (REFRESH_TOKEN_TTL_SECONDS from sign-in: a rotation never
 * extends it, so a stolen token dies with its family, adr/0045) and, when a spent token
 * comes back, revokes its whole family (it was stolen or replayed);
 * `revokeToken` and `logout` end sessions and are idempotent; an ended session's access
 * tokens die with it (liveSessions.ts, adr/0064).
 */
import { randomUUID } from 'node:crypto';
import { ApiProblem } from '../../errors/apiProblem.ts';
import type { Handlers } from '../../contract/operations.ts';
import type { Tx } from '../../data/dataLayer.ts';
import type { DomainDeps } from '../deps.ts';
import { addressKey } from './addressKey.ts';
import { deviceHashOf, knownDevices } from './knownDevices.ts';
import { hashToken, newOpaqueToken } from './secrets.ts';
import { signInLimits } from './signInLimits.ts';

/** What sign-in reads of the customer an email names. */
interface SignInUserRow {
  id: string;
  passwordHash: string;
}

/** A presented refresh token; `expiresAt` as the adapter gives a timestamptz (ISO text). */
interface PresentedTokenRow {
  id: string;
  userId: string;
  familyId: string;
  expiresAt: string;
  replacedBy: string | null;
}

/** The handlers of sign-in, refresh, revoke and logout. */
export function sessionHandlers({ data, config, tokens, secrets, sessions }: DomainDeps): Pick<
  Handlers,
  'createToken' | 'refreshToken' | 'revokeToken' | 'logout'
> {
  // Verifying against this when the email is unknown keeps both answers equally slow.
  const decoyHash = secrets.hash(randomUUID());
  const limits = signInLimits(data, config);
  const devices = knownDevices(data, config);

  /** A new pair in `familyId`, whose refresh token ends at `expiresAt` (the family's end: sign-in's, kept by every rotation). */
  async function issuePair(userId: string, familyId: string, db: Tx, expiresAt: Date) {
    const refreshToken = newOpaqueToken();
    const id = randomUUID();
    await db.$executeRaw`
      INSERT INTO refresh_tokens (id, user_id, family_id, token_hash, expires_at)
      VALUES (${id}::uuid, ${userId}::uuid, ${familyId}::uuid, ${hashToken(refreshToken)}::text, ${expiresAt.toISOString()}::timestamptz)`;
    const accessToken = await tokens.issue({ userId, familyId });
    return {
      id,
      pair: {
        accessToken,
        refreshToken,
        tokenType: 'Bearer' as const,
        expiresIn: config.accessTokenTtlSeconds,
        refreshExpiresIn: Math.max(1, Math.ceil((expiresAt.getTime() - Date.now()) / 1000)),
      },
    };
  }

  return {
    async createToken({ body, clientAddress }) {
      const email = body.email.trim().toLowerCase();
      // Counted and remembered by its key: an IPv6 address by its /64 (adr/0064).
      const address = addressKey(clientAddress ?? 'unknown');
      const deviceHash = deviceHashOf(body.deviceToken);
      const { failuresHere, deviceFailures } = await limits.refuseIfLimited(email, address, deviceHash);
      const [user] = await data.read((db) => db.$queryRaw<SignInUserRow[]>`
        SELECT id, password_hash AS "passwordHash" FROM users WHERE email = ${email}::text`);
      const valid = await secrets.verify(body.password, user?.passwordHash ?? (await decoyHash));
      if (!user || !valid) {
        // The refusal is told only once it is counted: an outage here is a 503 that tells nothing.
        await limits.countFailure(email, address, deviceHash);
        throw new ApiProblem('INVALID_CREDENTIALS');
      }
      if (failuresHere > 0 || deviceFailures > 0) await limits.clearFailures(email, address, deviceHash);
      const deviceToken = await devices.remember(user.id, body.deviceToken, address);
      // A new row with a fresh id: rerunning it after a confirmed failure cannot duplicate it.
      data.writesFor(user.id);
      const { pair } = await data.runInTransaction(
        (tx) => issuePair(user.id, randomUUID(), tx, new Date(Date.now() + config.refreshTokenTtlSeconds * 1000)),
        { label: 'createToken' },
      );
      return { status: 200, body: { ...pair, deviceToken } };
    },

    async refreshToken({ body }) {
      const tokenHash = hashToken(body.refreshToken);
      const [presented] = await data.read((db) => db.$queryRaw<PresentedTokenRow[]>`
        SELECT id, user_id AS "userId", family_id AS "familyId", expires_at AS "expiresAt", replaced_by AS "replacedBy"
        FROM refresh_tokens WHERE token_hash = ${tokenHash}::text`);
      if (!presented || new Date(presented.expiresAt) <= new Date()) throw new ApiProblem('TOKEN_INVALID');
      const expiresAt = new Date(presented.expiresAt);
      data.writesFor(presented.userId);
      const rotated = await data.runInTransaction(async (tx) => {
        const next = await issuePair(presented.userId, presented.familyId, tx, expiresAt);
        const spent = await tx.$executeRaw`
          UPDATE refresh_tokens SET revoked_at = now(), replaced_by = ${next.id}::uuid WHERE id = ${presented.id}::uuid AND revoked_at IS NULL`;
        return spent === 1 ? next.pair : undefined;
      }, { label: 'refreshToken' });
      if (!rotated) {
        // A spent token came back: whoever holds the family is not to be trusted.
        await data.write((db) => db.$executeRaw`
          UPDATE refresh_tokens SET revoked_at = now() WHERE family_id = ${presented.familyId}::uuid AND revoked_at IS NULL`);
        sessions.ended([presented.familyId]);
        // Say what happened to this token: spent by a rotation, or ended with its session (signed out, or another token of it came back).
        throw new ApiProblem(
          'TOKEN_INVALID',
          presented.replacedBy
            ? 'This refresh token was already used; its session has been ended. Sign in again.'
            : 'The session of this refresh token was ended (signed out, or one of its refresh tokens was used twice). Sign in again.',
        );
      }
      return { status: 200, body: rotated };
    },

    async revokeToken({ body }) {
      const tokenHash = hashToken(body.refreshToken);
      const revoked = await data.write((db) => db.$queryRaw<{ familyId: string }[]>`
        UPDATE refresh_tokens SET revoked_at = now() WHERE token_hash = ${tokenHash}::text AND revoked_at IS NULL
        RETURNING family_id AS "familyId"`);
      // The family's live token revoked ends its session (RFC 7009 §2.1: its access tokens too).
      sessions.ended(revoked.map((row) => row.familyId));
      return { status: 204, body: undefined };
    },

    async logout({ caller }) {
      const revoked = await data.write((db) => db.$queryRaw<{ familyId: string }[]>`
        UPDATE refresh_tokens SET revoked_at = now() WHERE user_id = ${caller.userId}::uuid AND revoked_at IS NULL
        RETURNING family_id AS "familyId"`);
      sessions.ended([caller.familyId, ...new Set(revoked.map((row) => row.familyId))]);
      return { status: 204, body: undefined };
    },
  };
}
