/**
 * Rows to wire shapes. Amounts are bigint in the database and integers on the wire; the
 * spec bounds every amount far below 2^53, so the conversion is exact.
 */
import type { components } from '@tidewater/spec/openapi';

type Schemas = components['schemas'];

/** The columns of a user that its public view shows. */
export interface UserView {
  readonly id: string;
  readonly email: string;
  readonly displayName: string;
  readonly handle: string;
  readonly primaryAccountId: string | null;
  readonly createdAt: Date;
}

/** The columns of an account that its public view shows. */
export interface AccountView {
  readonly id: string;
  readonly name: string;
  readonly currency: string;
  readonly balanceMinor: bigint;
  readonly status: string;
  readonly openedAt: Date;
  readonly closedAt: Date | null;
  readonly idempotencyKey: string | null;
}

/** A bigint amount as a JSON-safe integer; throws rather than lose precision. */
export function toMinor(value: bigint): number {
  if (value > BigInt(Number.MAX_SAFE_INTEGER) || value < BigInt(Number.MIN_SAFE_INTEGER)) {
    throw new RangeError(`amount ${value} is beyond JSON's exact integers`);
  }
  return Number(value);
}

/** The public view of a user. */
export function toUser(row: UserView): Schemas['User'] {
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
export function toAccount(row: AccountView, primaryAccountId: string | null): Schemas['Account'] {
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
