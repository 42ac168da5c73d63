/**
 * Reading and locking the rows a money send looks at. Account rows are locked in id
 * order, in one statement (`ORDER BY id FOR UPDATE` locks rows in the order it returns
 * them), so two transfers over the same pair of accounts never wait on each other in a
 * cycle: no deadlock, only a queue. Each lock wait is bounded by `lock_timeout`
 * (ACCOUNT_LOCK_WAIT_MS); a lost wait (55P03) is the data layer's contention, rerun up to
 * ACCOUNT_WRITE_ATTEMPTS times, then busy.
 */
import { Prisma } from '../../generated/prisma/client.ts';
import type { Tx } from '../../data/dataLayer.ts';
import type { ChainHead } from '../auditChain.ts';

/** What a send reads from an account row (and its audit chain's head). */
export interface AccountState extends ChainHead {
  id: string;
  userId: string;
  name: string;
  status: 'open' | 'closed';
  balanceMinor: bigint;
}

/** Account rows by id. */
export type AccountsById = Map<string, AccountState>;

/** Whatever can run a raw query: a transaction or the client (which has all a transaction has). */
export type Queryable = Pick<Tx, '$queryRaw' | '$executeRaw'>;

/** Bounds every lock wait of the current transaction (SET LOCAL lock_timeout). */
export async function limitLockWaits(tx: Tx, lockWaitMs: number): Promise<void> {
  await tx.$queryRaw`SELECT set_config('lock_timeout', ${`${Math.max(1, Math.round(lockWaitMs))}ms`}, true)`;
}

/** Reads the accounts; with `lock`, locks them in id order for the transaction. */
export async function readAccounts(db: Queryable, ids: string[], options: { lock: boolean }): Promise<AccountsById> {
  const unique = [...new Set(ids)];
  const rows = await db.$queryRaw<AccountState[]>`
    SELECT id::text AS id, user_id::text AS "userId", name, status, balance_minor AS "balanceMinor",
           audit_seq AS "auditSeq", audit_hash AS "auditHash"
    FROM accounts WHERE id = ANY(${unique}::uuid[])
    ORDER BY id ${options.lock ? Prisma.sql`FOR UPDATE` : Prisma.empty}`;
  return new Map(rows.map((row) => [row.id, row]));
}

/**
 * Locks the customer's row before their accounts (the daily ceiling counts across all of
 * them). NO KEY UPDATE: claims and step-ups that reference the customer still insert.
 */
export async function lockCustomer(tx: Tx, userId: string): Promise<void> {
  await tx.$queryRaw`SELECT id FROM users WHERE id = ${userId}::uuid FOR NO KEY UPDATE`;
}
