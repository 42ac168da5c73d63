/**
 * A step-up authorisation as a money send uses it (withdrawals, transfers by handle and
 * external transfers; the PIN check that issues one is `stepUpHandlers.ts`): bound to the
 * one payment it approves (approvedPayment.ts, adr/0045), read before the send's first
 * attempt, spent inside the transaction that moves the money, so a send that moves
 * nothing spends nothing, and what it leaves unspent still moves only that payment.
 */
import { Prisma } from '../../generated/prisma/client.ts';
import type { DataLayer, Tx } from '../../data/dataLayer.ts';
import { ApiProblem } from '../../errors/apiProblem.ts';
import { boundPayment, type ApprovedPaymentWire } from './approvedPayment.ts';

interface AuthorizationState {
  userId: string;
  used: boolean;
  expired: boolean;
  /** True when it approves the payment the send makes. */
  matches: boolean;
}

/** The refusal an authorisation in this state earns, or undefined when it can be spent by `userId`. */
function refusalOf(state: AuthorizationState | undefined, userId: string): ApiProblem | undefined {
  if (!state || state.userId !== userId || state.used) {
    return new ApiProblem('AUTHORIZATION_INVALID', 'The step-up authorisation is unknown or already used; check the PIN again.');
  }
  if (!state.matches) {
    return new ApiProblem('AUTHORIZATION_MISMATCH', 'The step-up authorisation approves another payment (its account, amount or payee differ); check the PIN for this one. Nothing moved.');
  }
  if (state.expired) return new ApiProblem('AUTHORIZATION_EXPIRED', 'The step-up authorisation has expired; check the PIN again.');
  return undefined;
}

/** True in SQL when the row approves exactly `payment`. */
function approves(payment: ApprovedPaymentWire): Prisma.Sql {
  const bound = boundPayment(payment);
  return Prisma.sql`(operation = ${bound.operation} AND from_account_id = ${bound.fromAccountId}::uuid AND amount_minor = ${bound.amountMinor}::bigint
    AND payee_handle IS NOT DISTINCT FROM ${bound.toHandle}::text AND payee_iban IS NOT DISTINCT FROM ${bound.iban}::text
    AND payee_name IS NOT DISTINCT FROM ${bound.beneficiaryName}::text)`;
}

async function authorizationState(db: Pick<Tx, '$queryRaw'>, authorizationId: string, payment: ApprovedPaymentWire): Promise<AuthorizationState | undefined> {
  const rows = await db.$queryRaw<AuthorizationState[]>`
    SELECT user_id::text AS "userId", used_at IS NOT NULL AS used, expires_at <= now() AS expired, coalesce(${approves(payment)}, false) AS matches
    FROM step_up_authorizations WHERE id = ${authorizationId}::uuid`;
  return rows[0];
}

/** Before a send's first attempt (and again before a busy answer): throws its 401 or 403 when it cannot pay `payment`. */
export async function checkAuthorization(data: DataLayer, userId: string, authorizationId: string, payment: ApprovedPaymentWire): Promise<void> {
  const refusal = refusalOf(await data.read((db) => authorizationState(db, authorizationId, payment)), userId);
  if (refusal) throw refusal;
}

/** Inside the transaction that moves the money: spends it once on `payment`, or throws its 401 or 403. */
export async function spendAuthorization(tx: Tx, userId: string, authorizationId: string, payment: ApprovedPaymentWire): Promise<void> {
  const spent = await tx.$executeRaw`
    UPDATE step_up_authorizations SET used_at = now()
    WHERE id = ${authorizationId}::uuid AND user_id = ${userId}::uuid AND used_at IS NULL AND expires_at > now() AND ${approves(payment)}`;
  if (spent === 1) return;
  throw refusalOf(await authorizationState(tx, authorizationId, payment), userId) ?? new ApiProblem('AUTHORIZATION_INVALID');
}
