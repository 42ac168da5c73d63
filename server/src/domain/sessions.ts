/**
 * Sign-in and its tokens: `createToken` checks the password and issues an access token
 * with a rotating refresh token (stored only as its hash); `refreshToken` rotates it and,
 * when a spent token comes back, revokes its whole family (it was stolen or replayed);
 * `revokeToken` and `logout` end sessions and are idempotent.
 */
import { randomUUID } from 'node:crypto';
import { ApiProblem } from '../http/apiProblem.ts';
import type { Handlers } from '../http/operationRouter.ts';
import type { DomainDeps } from './deps.ts';
import { hashSecret, hashToken, newOpaqueToken, verifySecret } from './secrets.ts';

/** The handlers of sign-in, refresh, revoke and logout. */
export function sessionHandlers({ database, config, tokens }: DomainDeps): Pick<
  Handlers,
  'createToken' | 'refreshToken' | 'revokeToken' | 'logout'
> {
  const { prisma } = database;
  // Verifying against this when the email is unknown keeps both answers equally slow.
  const decoyHash = hashSecret(randomUUID());

  async function issuePair(userId: string, familyId: string, tx: Pick<typeof prisma, 'refreshToken'> = prisma) {
    const refreshToken = newOpaqueToken();
    const id = randomUUID();
    await tx.refreshToken.create({
      data: {
        id,
        userId,
        familyId,
        tokenHash: hashToken(refreshToken),
        expiresAt: new Date(Date.now() + config.refreshTokenTtlSeconds * 1000),
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
        refreshExpiresIn: config.refreshTokenTtlSeconds,
      },
    };
  }

  return {
    async createToken({ body }) {
      const user = await prisma.user.findUnique({ where: { email: body.email.trim().toLowerCase() } });
      const valid = await verifySecret(body.password, user?.passwordHash ?? (await decoyHash));
      if (!user || !valid) throw new ApiProblem('INVALID_CREDENTIALS');
      const { pair } = await issuePair(user.id, randomUUID());
      return { status: 200, body: pair };
    },

    async refreshToken({ body }) {
      const presented = await prisma.refreshToken.findUnique({ where: { tokenHash: hashToken(body.refreshToken) } });
      if (!presented || presented.expiresAt <= new Date()) throw new ApiProblem('TOKEN_INVALID');
      const rotated = await prisma.$transaction(async (tx) => {
        const next = await issuePair(presented.userId, presented.familyId, tx);
        const spent = await tx.refreshToken.updateMany({
          where: { id: presented.id, revokedAt: null },
          data: { revokedAt: new Date(), replacedBy: next.id },
        });
        return spent.count === 1 ? next.pair : undefined;
      });
      if (!rotated) {
        // A spent token came back: whoever holds the family is not to be trusted.
        await prisma.refreshToken.updateMany({
          where: { familyId: presented.familyId, revokedAt: null },
          data: { revokedAt: new Date() },
        });
        throw new ApiProblem('TOKEN_INVALID', 'This refresh token was already used; its session has been ended.');
      }
      return { status: 200, body: rotated };
    },

    async revokeToken({ body }) {
      await prisma.refreshToken.updateMany({
        where: { tokenHash: hashToken(body.refreshToken), revokedAt: null },
        data: { revokedAt: new Date() },
      });
      return { status: 204, body: undefined };
    },

    async logout({ caller }) {
      await prisma.refreshToken.updateMany({
        where: { userId: caller.userId, revokedAt: null },
        data: { revokedAt: new Date() },
      });
      return { status: 204, body: undefined };
    },
  };
}
