/**
 * Rows to wire shapes. Amounts are bigint in the database and integers on the wire; the
 * spec bounds every amount far below 2^53, so the conversion is exact.
 */
import type { components } from '@tidewater/spec/openapi';
import type { Account as AccountRow, User as UserRow } from '../generated/prisma/client.ts';

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

/** The public view of an account; `primaryAccountId` is its owner's. */
export function toAccount(row: AccountRow, primaryAccountId: string | null): Schemas['Account'] {
  return {
    id: row.id,
    name: row.name,
    currency: row.currency as Schemas['Account']['currency'],
    balanceMinor: toMinor(row.balanceMinor),
    status: row.status as Schemas['Account']['status'],
    isPrimary: row.id === primaryAccountId,
    openedAt: row.openedAt.toISOString(),
    closedAt: row.closedAt ? row.closedAt.toISOString() : null,
    idempotencyKey: row.idempotencyKey,
  };
}
