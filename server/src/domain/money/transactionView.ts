/** Ledger rows to the wire's Transaction (amounts as exact JSON integers). */
import type { components } from '@tidewater/spec/openapi';
import type { LedgerEntry } from '../../generated/prisma/client.ts';
import { toMinor } from '../wireViews.ts';

type Transaction = components['schemas']['Transaction'];

/** The public view of one movement. */
export function toTransaction(row: LedgerEntry): Transaction {
  return {
    id: row.id,
    accountId: row.accountId,
    kind: row.kind as Transaction['kind'],
    amountMinor: toMinor(row.amountMinor),
    balanceAfterMinor: toMinor(row.balanceAfterMinor),
    description: row.description,
    counterparty: row.counterparty,
    idempotencyKey: row.idempotencyKey,
    transferId: row.transferId,
    createdAt: row.createdAt.toISOString(),
  };
}
