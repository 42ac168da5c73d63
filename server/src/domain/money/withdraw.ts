/**
 * A withdrawal: money out of one of the customer's open accounts, never below zero. It is
 * money leaving the customer (leavingMoney.ts): a step-up authorisation for exactly this
 * withdrawal, spent in the same transaction, and the daily ceiling (201 Transaction).
 */
import type { components } from '@tidewater/spec/openapi';
import type { DataLayer } from '../../data/dataLayer.ts';
import { covers, ownOpenAccount } from './checks.ts';
import { leavingMoney } from './leavingMoney.ts';
import type { MoneySendFactory } from './moneySend.ts';
import { postOwnMovement } from './ownMovement.ts';

type Transaction = components['schemas']['Transaction'];

/** The withdrawal of `body` from `accountId`, within `dailyLimitMinor` a day. */
export function withdrawSend(
  data: DataLayer,
  dailyLimitMinor: number,
  accountId: string,
  body: components['schemas']['WithdrawalRequest'],
): MoneySendFactory<void, Transaction> {
  const amountMinor = BigInt(body.amountMinor);
  return (request) => {
    const leaving = leavingMoney(data, dailyLimitMinor, request.userId, body.authorizationId, {
      operation: 'withdraw',
      fromAccountId: accountId,
      amountMinor: body.amountMinor,
    });
    return {
      label: 'withdraw',
      locksCustomer: true,
      prepare: leaving.authorized,
      accountIds: () => [accountId],
      async check(_plan, { accounts, query }) {
        covers(ownOpenAccount(accounts, accountId, request.userId), amountMinor);
        await leaving.withinCeiling(query);
      },
      async save(tx, _plan, accounts) {
        await leaving.spend(tx);
        return postOwnMovement(tx, accounts, accountId, { kind: 'withdrawal', amountMinor: -amountMinor, description: body.description }, request);
      },
      recheckBeforeBusy: leaving.authorized,
    };
  };
}
