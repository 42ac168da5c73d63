/**
 * A step-up authorisation as a money send uses it (withdrawals and external transfers;
 * the PIN check that issues one is `stepUpHandlers.ts`): read before the send's first
 * attempt, spent inside the transaction that moves the money, so a send that moves
 * nothing spends nothing.
 */
import type { DataLayer, Tx } from '../../data/dataLayer.ts';
import { ApiProblem } from '../../errors/apiProblem.ts';

interface AuthorizationState {
  userId: string;
  used: boolean;
  expired: boolean;
}

/** The 401 an authorisation in this state earns, or undefined when it can be spent by `userId`. */
function refusalOf(state: AuthorizationState | undefined, userId: string): ApiProblem | undefined {
  if (!state || state.userId !== userId || state.used) {
    return new ApiProblem('AUTHORIZATION_INVALID', 'The step-up authorisation is unknown or already used; check the PIN again.');
  }
  if (state.expired) return new ApiProblem('AUTHORIZATION_EXPIRED', 'The step-up authorisation has expired; check the PIN again.');
  return undefined;
}

async function authorizationState(db: Pick<Tx, '$queryRaw'>, authorizationId: string): Promise<AuthorizationState | undefined> {
  const rows = await db.$queryRaw<AuthorizationState[]>`
    SELECT user_id::text AS "userId", used_at IS NOT NULL AS used, expires_at <= now() AS expired
    FROM step_up_authorizations WHERE id = ${authorizationId}::uuid`;
  return rows[0];
}

/** Before a send's first attempt (and again before a busy answer): throws its 401 when it cannot be spent. */
export async function checkAuthorization(data: DataLayer, userId: string, authorizationId: string): Promise<void> {
  const refusal = refusalOf(await data.read((db) => authorizationState(db, authorizationId)), userId);
  if (refusal) throw refusal;
}

/** Inside the transaction that moves the money: spends it once, or throws its 401. */
export async function spendAuthorization(tx: Tx, userId: string, authorizationId: string): Promise<void> {
  const spent = await tx.$executeRaw`
    UPDATE step_up_authorizations SET used_at = now()
    WHERE id = ${authorizationId}::uuid AND user_id = ${userId}::uuid AND used_at IS NULL AND expires_at > now()`;
  if (spent === 1) return;
  throw refusalOf(await authorizationState(tx, authorizationId), userId) ?? new ApiProblem('AUTHORIZATION_INVALID');
}
