/**
 * A transfer to an IBAN outside Tidewater. The IBAN's checksum and its country's length
 * are checked by ibantools (422 INVALID_IBAN). It is money leaving the customer
 * (leavingMoney.ts): a step-up authorisation for exactly this IBAN, name, account and
 * amount, spent in the transaction that moves the money, and the daily ceiling, for which
 * an attempt locks the customer's row first.
 */
import { randomUUID } from 'node:crypto';
import type { components } from '@tidewater/spec/openapi';
import type { DataLayer } from '../../data/dataLayer.ts';
import { toMinor } from '../wireViews.ts';
import { validIban } from '../identity/approvedPayment.ts';
import { covers, ownOpenAccount } from './checks.ts';
import { leavingMoney } from './leavingMoney.ts';
import { postMovement } from './ledger.ts';
import type { MoneySendFactory } from './moneySend.ts';
import { toTransaction } from './transactionView.ts';
import { writtenText, writtenNote } from '../writtenText.ts';

type Transfer = components['schemas']['Transfer'];

/** What `prepare` settles: the IBAN in electronic form, and the payment it makes leave. */
interface Plan {
  iban: string;
  leaving: ReturnType<typeof leavingMoney>;
}

/** The transfer of `body`, limited to `dailyLimitMinor` a day. */
export function externalTransferSend(
  data: DataLayer,
  dailyLimitMinor: number,
  body: components['schemas']['ExternalTransferRequest'],
): MoneySendFactory<Plan, Transfer> {
  const amountMinor = BigInt(body.amountMinor);
  const beneficiaryName = writtenText(body.beneficiaryName);
  return (request) => ({
    label: 'createExternalTransfer',
    locksCustomer: true,
    async prepare() {
      const iban = validIban(body.iban);
      const leaving = leavingMoney(data, dailyLimitMinor, request.userId, body.authorizationId, {
        operation: 'createExternalTransfer',
        fromAccountId: body.fromAccountId,
        amountMinor: body.amountMinor,
        iban,
        beneficiaryName,
      });
      await leaving.authorized();
      return { iban, leaving };
    },
    accountIds: () => [body.fromAccountId],
    async check({ leaving }, { accounts, query }) {
      covers(ownOpenAccount(accounts, body.fromAccountId, request.userId), amountMinor);
      await leaving.withinCeiling(query);
    },
    async save(tx, { iban, leaving }, accounts) {
      await leaving.spend(tx);
      const transferId = randomUUID();
      const out = await postMovement(tx, accounts.get(body.fromAccountId)!, {
        kind: 'external_out',
        amountMinor: -amountMinor,
        description: writtenNote(body.description),
        counterparty: `${beneficiaryName} (${iban})`,
        idempotencyKey: request.key,
        transferId,
      }, request);
      return {
        id: transferId,
        fromAccountId: body.fromAccountId,
        toAccountId: null,
        toHandle: null,
        iban,
        beneficiaryName,
        amountMinor: toMinor(amountMinor),
        createdAt: out.createdAt.toISOString(),
        movements: [toTransaction(out)],
      };
    },
    recheckBeforeBusy: ({ leaving }) => leaving.authorized(),
  });
}
