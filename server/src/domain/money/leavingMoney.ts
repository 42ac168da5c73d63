/**
 * What every send of money that leaves the customer (a withdrawal, a transfer by handle,
 * an external transfer) does on top of its own steps (adr/0045): its step-up
 * authorisation must approve exactly this payment (read before the first attempt and
 * before a busy answer, spent in the transaction that moves the money), and the payment
 * must fit under the one daily ceiling, counted after the customer's row is locked.
 */
import type { DataLayer, Tx } from '../../data/dataLayer.ts';
import type { ApprovedPaymentWire } from '../identity/approvedPayment.ts';
import { checkAuthorization, spendAuthorization } from '../identity/stepUpAuthorization.ts';
import type { Queryable } from './accountRows.ts';
import { sentToday, withinDailyLimit } from './dailyLimit.ts';

/** The checks of one payment leaving `userId` under `authorizationId`. */
export function leavingMoney(data: DataLayer, dailyLimitMinor: number, userId: string, authorizationId: string, payment: ApprovedPaymentWire) {
  return {
    /** 401/403 unless the authorisation can pay exactly this payment now. */
    authorized: () => checkAuthorization(data, userId, authorizationId, payment),
    /** 422 DAILY_LIMIT_EXCEEDED when the payment would pass today's ceiling (run with the customer's row locked). */
    async withinCeiling(query: <T>(fn: (db: Queryable) => Promise<T>) => Promise<T>): Promise<void> {
      withinDailyLimit(await query((db) => sentToday(db, userId)), BigInt(payment.amountMinor), dailyLimitMinor);
    },
    /** Spends the authorisation on this payment, in the transaction that moves it. */
    spend: (tx: Tx) => spendAuthorization(tx, userId, authorizationId, payment),
  };
}
