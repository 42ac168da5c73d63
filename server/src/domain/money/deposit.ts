/** A deposit: money into one of the customer's open accounts (201 Transaction). */
import type { components } from '@tidewater/spec/openapi';
import { holds, ownOpenAccount } from './checks.ts';
import type { MoneySendFactory } from './moneySend.ts';
import { depositAtOnce } from './ownMovement.ts';

type Transaction = components['schemas']['Transaction'];

/** The deposit of `body` into `accountId`. */
export function depositSend(accountId: string, body: components['schemas']['DepositRequest']): MoneySendFactory<void, Transaction> {
  return (request) => ({
    label: 'deposit',
    async prepare() {},
    accountIds() {
      return [accountId];
    },
    async check(_plan, { accounts }) {
      holds(ownOpenAccount(accounts, accountId, request.userId), BigInt(body.amountMinor));
    },
    atOnce(sql, _plan, claim, lockWaitMs) {
      return depositAtOnce(sql, claim, accountId, { amountMinor: BigInt(body.amountMinor), description: body.description }, request, lockWaitMs);
    },
  });
}
