/**
 * The one movement of a deposit or a withdrawal: on the sender's own account (locked by
 * the send's transaction), carrying the sender's key and note, no counterparty, no
 * transfer; answered as the wire's Transaction.
 */
import type { components } from '@tidewater/spec/openapi';
import type { Tx } from '../../data/dataLayer.ts';
import { writtenNote } from '../writtenText.ts';
import type { AccountsById } from './accountRows.ts';
import { postMovement, type Stamp } from './ledger.ts';
import { toTransaction } from './transactionView.ts';

type Transaction = components['schemas']['Transaction'];

/** Posts `amountMinor` (positive in, negative out) on `accountId` as `kind`. */
export async function postOwnMovement(
  tx: Tx,
  accounts: AccountsById,
  accountId: string,
  movement: { kind: 'deposit' | 'withdrawal'; amountMinor: bigint; description: string | undefined },
  request: Stamp & { readonly key: string },
): Promise<Transaction> {
  const entry = await postMovement(tx, accounts.get(accountId)!, {
    kind: movement.kind,
    amountMinor: movement.amountMinor,
    description: writtenNote(movement.description),
    counterparty: null,
    idempotencyKey: request.key,
    transferId: null,
  }, request);
  return toTransaction(entry);
}
