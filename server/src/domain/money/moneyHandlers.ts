/**
 * The money sends' handlers: each builds its send's order and hands it to the one runner
 * (runMoneySend.ts). Only the request's own input is checked here (SAME_ACCOUNT between two
 * account ids, the IBAN's form); every rule on money state is the database's (adr/0041), and
 * so is a payee's handle: the send's one statement counts the look-up and finds the payee's
 * account, after the rules passed the send without its payee (adr/0064, adr/0079).
 */
import type { components } from '@tidewater/spec/openapi';
import type { Handlers } from '../../contract/operations.ts';
import type { DomainDeps } from '../deps.ts';
import type { KeysOnTheirWay } from '../idempotency/keysOnTheirWay.ts';
import { moneySendRunner } from './runMoneySend.ts';
import { validIban } from '../identity/approvedPayment.ts';
import { writtenNote, writtenText } from '../writtenText.ts';
import { refusalOf } from './refusals.ts';
import type { MoneySend, SendOrder } from './moneyStatement.ts';

type Schemas = components['schemas'];
type Transaction = Schemas['Transaction'];
type Transfer = Schemas['Transfer'];

/** The handlers of deposit, withdraw and both transfers; `onTheirWay` holds their keys until each statement claims its own. */
export function moneyHandlers(deps: DomainDeps, onTheirWay: KeysOnTheirWay): Pick<Handlers, 'deposit' | 'withdraw' | 'createInternalTransfer' | 'createExternalTransfer'> {
  const run = moneySendRunner(deps, onTheirWay);
  return {
    deposit: (input) => run<'deposit', Transaction>(input, { accountId: input.path.accountId }, depositOrder(input.path.accountId, input.body)),
    withdraw: (input) => run<'withdraw', Transaction>(input, { accountId: input.path.accountId }, withdrawOrder(input.path.accountId, input.body)),
    createInternalTransfer: (input) => run<'createInternalTransfer', Transfer>(input, {}, internalTransferOrder(input.body)),
    createExternalTransfer: (input) => run<'createExternalTransfer', Transfer>(input, {}, externalTransferOrder(input.body)),
  };
}

const none = { fromAccountId: null, toAccountId: null, toHandle: null, iban: null, beneficiaryName: null, authorizationId: null } as const;

/** A deposit into one of the customer's open accounts. */
function depositOrder(accountId: string, body: Schemas['DepositRequest']): MoneySend {
  const order: SendOrder = { ...none, operation: 'deposit', toAccountId: accountId, amountMinor: body.amountMinor, description: writtenNote(body.description) };
  return { label: 'deposit', order: () => order };
}

/** A withdrawal from one of the customer's open accounts: money leaving them (adr/0045). */
function withdrawOrder(accountId: string, body: Schemas['WithdrawalRequest']): MoneySend {
  const order: SendOrder = {
    ...none, operation: 'withdraw', fromAccountId: accountId, amountMinor: body.amountMinor,
    description: writtenNote(body.description), authorizationId: body.authorizationId,
  };
  return { label: 'withdraw', order: () => order };
}

/**
 * A transfer inside Tidewater: to another of the customer's accounts, or to another
 * customer by handle, landing in their primary account (money leaving the customer).
 */
function internalTransferOrder(body: Schemas['InternalTransferRequest']): MoneySend {
  const base = { ...none, operation: 'createInternalTransfer', fromAccountId: body.fromAccountId, amountMinor: body.amountMinor, description: writtenNote(body.description) } as const;
  if ('toAccountId' in body && body.toAccountId) {
    const toAccountId = body.toAccountId;
    return {
      label: 'createInternalTransfer',
      order() {
        if (toAccountId === body.fromAccountId) throw refusalOf('SAME_ACCOUNT', null);
        return { ...base, toAccountId };
      },
    };
  }
  const { toHandle, authorizationId } = body as { toHandle: string; authorizationId: string };
  return { label: 'createInternalTransfer', order: () => ({ ...base, toHandle, authorizationId }) };
}

/** A transfer to an IBAN outside Tidewater (422 INVALID_IBAN): money leaving the customer. */
function externalTransferOrder(body: Schemas['ExternalTransferRequest']): MoneySend {
  return {
    label: 'createExternalTransfer',
    order: () => ({
      ...none, operation: 'createExternalTransfer', fromAccountId: body.fromAccountId, amountMinor: body.amountMinor,
      description: writtenNote(body.description), iban: validIban(body.iban), beneficiaryName: writtenText(body.beneficiaryName),
      authorizationId: body.authorizationId,
    }),
  };
}
