/**
 * A user row to its wire shape. The shapes of an account and of a movement are the
 * database's (`wire_account`, `wire_transaction`): a send's or an opening's stored answer is
 * built there, so every read of them is built there too (adr/0076).
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
