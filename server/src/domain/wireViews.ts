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
  /** A Date, or the ISO text a direct statement reads. */
  readonly createdAt: Date | string;
}

/**
 * The columns of an account that its public view shows. The balance is bigint or its decimal
 * text (int8 as a direct statement reads it), the times a Date or the ISO string a statement reads.
 */
export interface AccountView {
  readonly id: string;
  readonly name: string;
  readonly currency: string;
  readonly balanceMinor: bigint | string;
  readonly status: string;
  readonly openedAt: Date | string;
  readonly closedAt: Date | string | null;
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
    createdAt: new Date(row.createdAt).toISOString(),
  };
}

/** The public view of an account; `primaryAccountId` is its owner's. */
export function toAccount(row: AccountView, primaryAccountId: string | null): Schemas['Account'] {
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
