/**
 * Sign-in and its tokens: `createToken` checks the password (limited: signInLimits.ts) and issues an access token
 * with a rotating refresh token (stored only as its hash) and the device token the client
 * presents at its next sign-in (knownDevices.ts); `refreshToken` rotates it within
 * the family's absolute lifetime (REFRESH_TOKEN_TTL_SECONDS from sign-in: a rotation never
 * extends it, so a stolen token dies with its family, adr/0045) and, when a spent token
 * comes back, revokes its whole family (it was stolen or replayed);
 * `revokeToken` and `logout` end sessions and are idempotent.
 */
import { randomUUID } from 'node:crypto';
import { ApiProblem } from '../../errors/apiProblem.ts';
import type { Handlers } from '../../contract/operations.ts';
import type { Tx } from '../../data/dataLayer.ts';
import type { DomainDeps } from '../deps.ts';
import { deviceHashOf, knownDevices } from './knownDevices.ts';
import { hashToken, newOpaqueToken } from './secrets.ts';
import { signInLimits } from './signInLimits.ts';

/** The handlers of sign-in, refresh, revoke and logout. */
export function sessionHandlers({ data, config, tokens, secrets }: DomainDeps): Pick<
  Handlers,
  'createToken' | 'refreshToken' | 'revokeToken' | 'logout'
> {
  // Verifying against this when the email is unknown keeps both answers equally slow.
  const decoyHash = secrets.hash(randomUUID());
  const limits = signInLimits(data, config);
  const devices = knownDevices(data, config);

  /** A new pair in `familyId`, whose refresh token ends at `expiresAt` (the family's end: sign-in's, kept by every rotation). */
  async function issuePair(userId: string, familyId: string, tx: Pick<Tx, 'refreshToken'>, expiresAt: Date) {
    const refreshToken = newOpaqueToken();
    const id = randomUUID();
    await tx.refreshToken.create({
      data: {
        id,
        userId,
        familyId,
        tokenHash: hashToken(refreshToken),
        expiresAt,
      },
    });
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
      const address = clientAddress ?? 'unknown';
      const deviceHash = deviceHashOf(body.deviceToken);
      const { failuresHere, deviceFailures } = await limits.refuseIfLimited(email, address, deviceHash);
      const user = await data.read((db) => db.user.findUnique({ where: { email } }));
      const valid = await secrets.verify(body.password, user?.passwordHash ?? (await decoyHash));
      if (!user || !valid) {
        // The refusal is told only once it is counted: an outage here is a 503 that tells nothing.
        await limits.countFailure(email, address, deviceHash);
        throw new ApiProblem('INVALID_CREDENTIALS');
      }
      if (failuresHere > 0 || deviceFailures > 0) await limits.clearFailures(email, address, deviceHash);
      const deviceToken = await devices.remember(user.id, body.deviceToken, address);
      // The password is the secure procedure that gives back a blocked or locked PIN (adr/0047, PSD2 RTS Art. 4(5)).
      if (user.pinLocks > 0) await data.write((db) => db.user.update({ where: { id: user.id }, data: { pinLocks: 0, pinFailedAttempts: 0, pinLockedUntil: null } }));
      // A new row with a fresh id: rerunning it after a confirmed failure cannot duplicate it.
      data.writesFor(user.id);
      const { pair } = await data.runInTransaction((tx) => issuePair(user.id, randomUUID(), tx, new Date(Date.now() + config.refreshTokenTtlSeconds * 1000)), { label: 'createToken' });
      return { status: 200, body: { ...pair, deviceToken } };
    },

    async refreshToken({ body }) {
      const tokenHash = hashToken(body.refreshToken);
      const presented = await data.read((db) => db.refreshToken.findUnique({ where: { tokenHash } }));
      if (!presented || presented.expiresAt <= new Date()) throw new ApiProblem('TOKEN_INVALID');
      data.writesFor(presented.userId);
      const rotated = await data.runInTransaction(async (tx) => {
        const next = await issuePair(presented.userId, presented.familyId, tx, presented.expiresAt);
        const spent = await tx.refreshToken.updateMany({
          where: { id: presented.id, revokedAt: null },
          data: { revokedAt: new Date(), replacedBy: next.id },
        });
        return spent.count === 1 ? next.pair : undefined;
      }, { label: 'refreshToken' });
      if (!rotated) {
        // A spent token came back: whoever holds the family is not to be trusted.
        await data.write((db) =>
          db.refreshToken.updateMany({ where: { familyId: presented.familyId, revokedAt: null }, data: { revokedAt: new Date() } }),
        );
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
      await data.write((db) => db.refreshToken.updateMany({ where: { tokenHash, revokedAt: null }, data: { revokedAt: new Date() } }));
      return { status: 204, body: undefined };
    },

    async logout({ caller }) {
      await data.write((db) =>
        db.refreshToken.updateMany({ where: { userId: caller.userId, revokedAt: null }, data: { revokedAt: new Date() } }),
      );
      return { status: 204, body: undefined };
    },
  };
}
