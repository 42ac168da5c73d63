/**
 * Registration and the signed-in user's profile: `register` (limited per address and in
 * all before anything is looked up or hashed: signUpLimits.ts) opens the first account
 * ("Everyday", primary) in the same transaction as the user; `getMe` reads the profile.
 */
import { randomUUID } from 'node:crypto';
import { ApiProblem } from '../../errors/apiProblem.ts';
import type { Handlers } from '../../contract/operations.ts';
import type { DomainDeps } from '../deps.ts';
import { toAccount, toUser } from '../wireViews.ts';
import { isUniqueViolation } from '../../data/retry/index.ts';
import { writtenText } from '../writtenText.ts';
import { signUpLimits } from './signUpLimits.ts';
import { refuseReservedHandle } from './handleRules.ts';
import { refuseCommonPassword, refuseWeakPin } from './weakSecrets.ts';

/** The handlers of registration and the profile. */
export function userHandlers({ data, secrets, pins, config }: DomainDeps): Pick<Handlers, 'register' | 'getMe'> {
  const limits = signUpLimits(data, config);
  /** 409 for a taken email, or a handle taken or a payer could mistake for a taken one (the same skeleton: handleRules.ts). */
  async function refuseTaken(email: string, handle: string): Promise<void> {
    const taken = await data.read((db) => db.$queryRaw<{ email: string; handle: string }[]>`
      SELECT email, handle FROM users WHERE email = ${email} OR handle_skeleton = handle_skeleton(${handle})
      ORDER BY email = ${email} DESC, handle = ${handle} DESC LIMIT 2`);
    if (taken.some((user) => user.email === email)) throw new ApiProblem('EMAIL_TAKEN');
    if (taken.some((user) => user.handle === handle)) throw new ApiProblem('HANDLE_TAKEN');
    if (taken.length > 0) throw new ApiProblem('HANDLE_TAKEN', 'That handle looks too much like another customer\'s. Choose another.');
  }

  return {
    async register({ body, clientAddress }) {
      await limits.countOrRefuse(clientAddress ?? 'unknown');
      const email = body.email.trim().toLowerCase();
      refuseWeakPin(body.pin);
      refuseCommonPassword(body.password);
      refuseReservedHandle(body.handle);
      await refuseTaken(email, body.handle);
      const passwordHash = await secrets.hash(body.password);
      const pinHash = pins.make(body.pin);
      const userId = randomUUID();
      const accountId = randomUUID();
      data.writesFor(userId);
      try {
        const { user, account } = await data.runInTransaction(async (tx) => {
          await tx.user.create({
            data: { id: userId, email, displayName: writtenText(body.displayName), handle: body.handle, passwordHash, pinHash },
          });
          const account = await tx.account.create({ data: { id: accountId, userId, name: 'Everyday' } });
          const user = await tx.user.update({ where: { id: userId }, data: { primaryAccountId: accountId } });
          return { user, account };
        }, { label: 'register' });
        return { status: 201, body: { user: toUser(user), account: toAccount(account, user.primaryAccountId) } };
      } catch (error) {
        // Another registration took the email or handle between our check and our insert.
        if (isUniqueViolation(error)) await refuseTaken(email, body.handle);
        throw error;
      }
    },

    async getMe({ caller }) {
      const user = await data.readDb().user.findUnique({ where: { id: caller.userId } });
      if (!user) throw new ApiProblem('UNAUTHENTICATED', 'The signed-in user no longer exists.');
      return { status: 200, body: toUser(user) };
    },
  };
}
