/** The money sends' handlers: each builds its send's order and hands it to the one runner. */
import type { components } from '@tidewater/spec/openapi';
import type { Handlers } from '../../contract/operations.ts';
import type { DomainDeps } from '../deps.ts';
import type { KeysOnTheirWay } from '../idempotency/keysOnTheirWay.ts';
import { moneySendRunner } from './runMoneySend.ts';
import { payeeLookups } from '../identity/payeeLookups.ts';
import { depositOrder, externalTransferOrder, internalTransferOrder, withdrawOrder } from './sendOrders.ts';

type Transaction = components['schemas']['Transaction'];
type Transfer = components['schemas']['Transfer'];

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
