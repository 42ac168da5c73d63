/**
 * A withdrawal: money out of one of the customer's open accounts, never below zero, with
 * a step-up authorisation spent in the same transaction (201 Transaction).
 */
import type { components } from '@tidewater/spec/openapi';
import type { DataLayer } from '../../data/dataLayer.ts';
import { checkAuthorization, spendAuthorization } from '../identity/stepUpAuthorization.ts';
import { covers, ownOpenAccount } from './checks.ts';
import type { MoneySendFactory } from './moneySend.ts';
import { postOwnMovement } from './ownMovement.ts';

type Transaction = components['schemas']['Transaction'];

/** The withdrawal of `body` from `accountId`. */
export function withdrawSend(
  data: DataLayer,
  accountId: string,
  body: components['schemas']['WithdrawalRequest'],
): MoneySendFactory<void, Transaction> {
  const amountMinor = BigInt(body.amountMinor);
  return (request) => ({
    label: 'withdraw',
    prepare: () => checkAuthorization(data, request.userId, body.authorizationId),
    accountIds: () => [accountId],
    async check(_plan, { accounts }) {
      covers(ownOpenAccount(accounts, accountId, request.userId), amountMinor);
    },
    async save(tx, _plan, accounts) {
      await spendAuthorization(tx, request.userId, body.authorizationId);
      return postOwnMovement(tx, accounts, accountId, { kind: 'withdrawal', amountMinor: -amountMinor, description: body.description }, request);
    },
    recheckBeforeBusy: () => checkAuthorization(data, request.userId, body.authorizationId),
  });
}
