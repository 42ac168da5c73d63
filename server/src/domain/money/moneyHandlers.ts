/** The money sends' handlers: each builds its send and hands it to the one runner. */
import type { Handlers } from '../../contract/operations.ts';
import type { DomainDeps } from '../deps.ts';
import { depositSend } from './deposit.ts';
import { externalTransferSend } from './externalTransfer.ts';
import { internalTransferSend } from './internalTransfer.ts';
import { moneySendRunner } from './runMoneySend.ts';
import { withdrawSend } from './withdraw.ts';

/** The handlers of deposit, withdraw and both transfers. */
export function moneyHandlers(deps: DomainDeps): Pick<Handlers, 'deposit' | 'withdraw' | 'createInternalTransfer' | 'createExternalTransfer'> {
  const run = moneySendRunner(deps);
  const { data, config } = deps;
  return {
    deposit: (input) => run(input, { accountId: input.path.accountId }, depositSend(input.path.accountId, input.body)),
    withdraw: (input) => run(input, { accountId: input.path.accountId }, withdrawSend(data, config.dailySendLimitMinor, input.path.accountId, input.body)),
    createInternalTransfer: (input) => run(input, {}, internalTransferSend(data, config.dailySendLimitMinor, input.body)),
    createExternalTransfer: (input) => run(input, {}, externalTransferSend(data, config.dailySendLimitMinor, input.body)),
  };
}
