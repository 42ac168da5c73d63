/**
 * Rows to wire shapes. Amounts are bigint in the database and integers on the wire; the
 * spec bounds every amount far below 2^53, so the conversion is exact.
 */
import type { components } from '@tidewater/spec/openapi';
import type { User as UserRow } from '../generated/prisma/client.ts';

type Schemas = components['schemas'];

/** A bigint amount as a JSON-safe integer; throws rather than lose precision. */
export function toMinor(value: bigint): number {
  if (value > BigInt(Number.MAX_SAFE_INTEGER) || value < BigInt(Number.MIN_SAFE_INTEGER)) {
    throw new RangeError(`amount ${value} is beyond JSON's exact integers`);
  }
  return Number(value);
}

/** The public view of a user. */
export function toUser(row: UserRow): Schemas['User'] {
  return {
    id: row.id,
    email: row.email,
    displayName: row.displayName,
    handle: row.handle,
    primaryAccountId: row.primaryAccountId,
    createdAt: row.createdAt.toISOString(),
  };
}

/**
 * The columns of an account its view shows. The balance is bigint or its decimal text (int8
 * as a direct statement reads it), the times a Date or the ISO string a statement reads.
 */
export interface AccountRow {
  id: string;
  name: string;
  currency: string;
  balanceMinor: bigint | string;
  status: string;
  openedAt: Date | string;
  closedAt: Date | string | null;
  idempotencyKey: string | null;
}

/** The public view of an account; `primaryAccountId` is its owner's. */
export function toAccount(row: AccountRow, primaryAccountId: string | null): Schemas['Account'] {
  return {
    id: row.id,
    name: row.name,
    currency: row.currency as Schemas['Account']['currency'],
    balanceMinor: toMinor(BigInt(row.balanceMinor)),
    status: row.status as Schemas['Account']['status'],
    isPrimary: row.id === primaryAccountId,
    openedAt: new Date(row.openedAt).toISOString(),
    closedAt: row.closedAt === null ? null : new Date(row.closedAt).toISOString(),
    idempotencyKey: row.idempotencyKey,
  };
}
