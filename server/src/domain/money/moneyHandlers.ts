/**
 * The money sends' handlers: each builds its send's order and hands it to the one runner
 * (runMoneySend.ts). Only the request's own input is checked here (SAME_ACCOUNT, the IBAN's
 * form) and a payee's handle resolved to their primary account (a read: PAYEE_NOT_FOUND),
 * only after the database's rules have passed the send without its payee (`checkFirst`: the
 * authorisation, the account's ownership) and the look-up has counted toward the customer's
 * payee limit (adr/0064); every rule on money state is the database's (adr/0041).
 */
import type { components } from '@tidewater/spec/openapi';
import type { Handlers } from '../../contract/operations.ts';
import type { DomainDeps } from '../deps.ts';
import type { KeysOnTheirWay } from '../idempotency/keysOnTheirWay.ts';
import { moneySendRunner } from './runMoneySend.ts';
import { payeeLookups, type PayeeLookups } from '../identity/payeeLookups.ts';
import type { DataLayer } from '../../data/dataLayer.ts';
import { ApiProblem } from '../../errors/apiProblem.ts';
import { validIban } from '../identity/approvedPayment.ts';
import { writtenNote, writtenText } from '../writtenText.ts';
import type { MoneySendFactory, SendOrder } from './moneyStatement.ts';

type Schemas = components['schemas'];
type Transaction = Schemas['Transaction'];
type Transfer = Schemas['Transfer'];

/** The handlers of deposit, withdraw and both transfers; `onTheirWay` holds their keys until each statement claims its own. */
export function moneyHandlers(deps: DomainDeps, onTheirWay: KeysOnTheirWay): Pick<Handlers, 'deposit' | 'withdraw' | 'createInternalTransfer' | 'createExternalTransfer'> {
  const run = moneySendRunner(deps, onTheirWay);
  const lookups = payeeLookups(deps.data, deps.config);
  return {
    deposit: (input) => run<'deposit', Transaction>(input, { accountId: input.path.accountId }, depositOrder(input.path.accountId, input.body)),
    withdraw: (input) => run<'withdraw', Transaction>(input, { accountId: input.path.accountId }, withdrawOrder(input.path.accountId, input.body)),
    createInternalTransfer: (input) => run<'createInternalTransfer', Transfer>(input, {}, internalTransferOrder(deps.data, lookups, input.body)),
    createExternalTransfer: (input) => run<'createExternalTransfer', Transfer>(input, {}, externalTransferOrder(input.body)),
  };
}

const none = { fromAccountId: null, toAccountId: null, toHandle: null, iban: null, beneficiaryName: null, authorizationId: null } as const;

const sameAccount = () => new ApiProblem('SAME_ACCOUNT', 'The money would go back into the account it leaves.');

/** A deposit into one of the customer's open accounts. */
function depositOrder(accountId: string, body: Schemas['DepositRequest']): MoneySendFactory {
  const order: SendOrder = { ...none, operation: 'deposit', toAccountId: accountId, amountMinor: body.amountMinor, description: writtenNote(body.description) };
  return () => ({ label: 'deposit', prepare: async () => order });
}

/** A withdrawal from one of the customer's open accounts: money leaving them (adr/0045). */
function withdrawOrder(accountId: string, body: Schemas['WithdrawalRequest']): MoneySendFactory {
  const order: SendOrder = {
    ...none, operation: 'withdraw', fromAccountId: accountId, amountMinor: body.amountMinor,
    description: writtenNote(body.description), authorizationId: body.authorizationId,
  };
  return () => ({ label: 'withdraw', prepare: async () => order });
}

/**
 * A transfer inside Tidewater: to another of the customer's accounts, or to another
 * customer by handle, landing in their primary account (money leaving the customer).
 */
function internalTransferOrder(data: DataLayer, lookups: PayeeLookups, body: Schemas['InternalTransferRequest']): MoneySendFactory {
  const base = { ...none, operation: 'createInternalTransfer', fromAccountId: body.fromAccountId, amountMinor: body.amountMinor, description: writtenNote(body.description) } as const;
  if ('toAccountId' in body && body.toAccountId) {
    const toAccountId = body.toAccountId;
    return () => ({
      label: 'createInternalTransfer',
      async prepare() {
        if (toAccountId === body.fromAccountId) throw sameAccount();
        return { ...base, toAccountId };
      },
    });
  }
  const { toHandle, authorizationId } = body as { toHandle: string; authorizationId: string };
  return ({ userId }) => ({
    label: 'createInternalTransfer',
    checkFirst: { ...base, toHandle, authorizationId },
    async prepare() {
      await lookups.countOrRefuse(userId);
      const [payee] = await data.read((db) => db.$queryRaw<{ primaryAccountId: string | null }[]>`
        SELECT primary_account_id AS "primaryAccountId" FROM users WHERE handle = ${toHandle}::text`);
      if (!payee) throw new ApiProblem('PAYEE_NOT_FOUND', `No customer has the handle ${toHandle}.`);
      if (!payee.primaryAccountId) throw new ApiProblem('PAYEE_HAS_NO_OPEN_ACCOUNT', 'The payee has no open account to receive the money.');
      if (payee.primaryAccountId === body.fromAccountId) throw sameAccount();
      return { ...base, toAccountId: payee.primaryAccountId, toHandle, authorizationId };
    },
  });
}

/** A transfer to an IBAN outside Tidewater (422 INVALID_IBAN): money leaving the customer. */
function externalTransferOrder(body: Schemas['ExternalTransferRequest']): MoneySendFactory {
  return () => ({
    label: 'createExternalTransfer',
    async prepare() {
      return {
        ...none, operation: 'createExternalTransfer', fromAccountId: body.fromAccountId, amountMinor: body.amountMinor,
        description: writtenNote(body.description), iban: validIban(body.iban), beneficiaryName: writtenText(body.beneficiaryName),
        authorizationId: body.authorizationId,
      };
    },
  });
}
