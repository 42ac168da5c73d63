/**
 * A transfer to an IBAN outside Tidewater. The IBAN's checksum and its country's length
 * are checked by ibantools (422 INVALID_IBAN); it needs a step-up authorisation, spent in
 * the transaction that moves the money; and it counts against the customer's daily
 * ceiling (dailyLimit.ts), for which an attempt locks the customer's row first.
 */
import { randomUUID } from 'node:crypto';
import { electronicFormatIBAN, isValidIBAN } from 'ibantools';
import type { components } from '@tidewater/spec/openapi';
import type { DataLayer } from '../../data/dataLayer.ts';
import { ApiProblem } from '../../errors/apiProblem.ts';
import { toMinor } from '../wireViews.ts';
import { checkAuthorization, spendAuthorization } from '../identity/stepUpAuthorization.ts';
import { covers, ownOpenAccount } from './checks.ts';
import { externalSentToday, withinDailyLimit } from './dailyLimit.ts';
import { postMovement } from './ledger.ts';
import type { MoneySendFactory } from './moneySend.ts';
import { toTransaction } from './transactionView.ts';
import { writtenText, writtenNote } from '../writtenText.ts';

type Transfer = components['schemas']['Transfer'];

/** The IBAN in electronic form (no spaces, upper case), or 422 INVALID_IBAN. */
function validIban(text: string): string {
  const iban = electronicFormatIBAN(text);
  if (!iban || !isValidIBAN(iban)) throw new ApiProblem('INVALID_IBAN', 'The IBAN is not valid: check its digits and its length.');
  return iban;
}

/** The transfer of `body`, limited to `dailyLimitMinor` a day. */
export function externalTransferSend(
  data: DataLayer,
  dailyLimitMinor: number,
  body: components['schemas']['ExternalTransferRequest'],
): MoneySendFactory<{ iban: string }, Transfer> {
  const amountMinor = BigInt(body.amountMinor);
  const beneficiaryName = writtenText(body.beneficiaryName);
  return (request) => ({
    label: 'createExternalTransfer',
    locksCustomer: true,
    async prepare() {
      const iban = validIban(body.iban);
      await checkAuthorization(data, request.userId, body.authorizationId);
      return { iban };
    },
    accountIds: () => [body.fromAccountId],
    async check(_plan, { accounts, query }) {
      covers(ownOpenAccount(accounts, body.fromAccountId, request.userId), amountMinor);
      withinDailyLimit(await query((db) => externalSentToday(db, request.userId)), amountMinor, dailyLimitMinor);
    },
    async save(tx, { iban }, accounts) {
      await spendAuthorization(tx, request.userId, body.authorizationId);
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
    recheckBeforeBusy: () => checkAuthorization(data, request.userId, body.authorizationId),
  });
}
