/** Ledger rows to the wire's Transaction (amounts as exact JSON integers). */
import type { components } from '@tidewater/spec/openapi';
import { toMinor } from '../wireViews.ts';

type Transaction = components['schemas']['Transaction'];

/** One movement as a direct statement reads it: int8 amounts as decimal text, the time as an ISO string. */
export interface LedgerRow {
  id: string;
  accountId: string;
  kind: string;
  amountMinor: string;
  balanceAfterMinor: string;
  description: string | null;
  counterparty: string | null;
  idempotencyKey: string | null;
  transferId: string | null;
  createdAt: string;
}

/** The public view of one movement. */
export function toTransaction(row: LedgerRow): Transaction {
  return {
    id: row.id,
    accountId: row.accountId,
    kind: row.kind as Transaction['kind'],
    amountMinor: toMinor(BigInt(row.amountMinor)),
    balanceAfterMinor: toMinor(BigInt(row.balanceAfterMinor)),
    description: row.description,
    counterparty: row.counterparty,
    idempotencyKey: row.idempotencyKey,
    transferId: row.transferId,
    createdAt: new Date(row.createdAt).toISOString(),
  };
}
