/**
 * Registration and the signed-in user's profile: `register` (limited per address and in
 * all before anything is looked up or hashed: signUpLimits.ts) opens the first account
 * ("Everyday", primary) in the same transaction as the user; `getMe` reads the profile.
 */
import { randomUUID } from 'node:crypto';
import type { components } from '@tidewater/spec/openapi';
import { parseJsonColumn } from '../../data/statements.ts';
import { ApiProblem } from '../../errors/apiProblem.ts';
import type { Handlers } from '../../contract/operations.ts';
import type { DomainDeps } from '../deps.ts';
import { toUser, type UserView } from '../wireViews.ts';
import { isUniqueViolation } from '../../data/retry/index.ts';
import { writtenText } from '../writtenText.ts';
import { addressKey } from './addressKey.ts';
import { signUpLimits } from './signUpLimits.ts';
import { handleRules } from './handleRules.ts';
import { refuseCommonPassword, refuseWeakPin } from './weakSecrets.ts';

/** The handlers of registration and the profile. */
export function userHandlers({ data, secrets, pins, config }: DomainDeps): Pick<Handlers, 'register' | 'getMe'> {
  const limits = signUpLimits(data, config);
  const handles = handleRules(data);
  /** 409 for a taken email, or a handle taken or a payer could mistake for a taken one (the same skeleton: handleRules.ts). */
  async function refuseTaken(email: string, handle: string): Promise<void> {
    const taken = await data.read((db) => db.$queryRaw<{ email: string; handle: string }[]>`
      SELECT email, handle FROM users WHERE email = ${email}::text OR handle_skeleton = handle_skeleton(${handle}::text)
      ORDER BY email = ${email}::text DESC, handle = ${handle}::text DESC LIMIT 2`);
    if (taken.some((user) => user.email === email)) throw new ApiProblem('EMAIL_TAKEN');
    if (taken.some((user) => user.handle === handle)) throw new ApiProblem('HANDLE_TAKEN');
    if (taken.length > 0) throw new ApiProblem('HANDLE_TAKEN', 'That handle looks too much like another customer\'s. Choose another.');
  }

  return {
    async register({ body, clientAddress }) {
      const attempt = await limits.countOrRefuse(addressKey(clientAddress ?? 'unknown'));
      const email = body.email.trim().toLowerCase();
      refuseWeakPin(body.pin);
      refuseCommonPassword(body.password);
      await handles.refuseReservedHandle(body.handle);
      await refuseTaken(email, body.handle);
      await limits.hashing(attempt);
      const passwordHash = await secrets.hash(body.password);
      const pinHash = pins.make(body.pin);
      const userId = randomUUID();
      const accountId = randomUUID();
      data.writesFor(userId);
      try {
        const { user, account } = await data.runInTransaction(async (tx) => {
          await tx.$executeRaw`
            INSERT INTO users (id, email, display_name, handle, password_hash, pin_hash)
            VALUES (${userId}::uuid, ${email}::text, ${writtenText(body.displayName)}::text, ${body.handle}::text, ${passwordHash}::text, ${pinHash}::text)`;
          // The customer's first account is their primary one (set just below, in this transaction).
          const [account] = await tx.$queryRaw<{ account: unknown }[]>`
            INSERT INTO accounts AS a (id, user_id, name) VALUES (${accountId}::uuid, ${userId}::uuid, 'Everyday')
            RETURNING wire_account(a, ${accountId}::uuid) AS account`;
          const [user] = await tx.$queryRaw<UserView[]>`
            UPDATE users SET primary_account_id = ${accountId}::uuid WHERE id = ${userId}::uuid
            RETURNING id, email, display_name AS "displayName", handle, primary_account_id AS "primaryAccountId", created_at AS "createdAt"`;
          return { user: user!, account: account! };
        }, { label: 'register' });
        return { status: 201, body: { user: toUser(user), account: parseJsonColumn<components['schemas']['Account']>(account.account) } };
      } catch (error) {
        // Another registration took the email, the handle or its skeleton (a UNIQUE index) between our check and our insert.
        if (isUniqueViolation(error)) await refuseTaken(email, body.handle);
        throw error;
      }
    },

    async getMe({ caller }) {
      const [user] = await data.readDb().$queryRaw<UserView[]>`
        SELECT id, email, display_name AS "displayName", handle, primary_account_id AS "primaryAccountId", created_at AS "createdAt"
        FROM users WHERE id = ${caller.userId}::uuid`;
      if (!user) throw new ApiProblem('UNAUTHENTICATED', 'The signed-in user no longer exists.');
      return { status: 200, body: toUser(user) };
    },
  };
}
