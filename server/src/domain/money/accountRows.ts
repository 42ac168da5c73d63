/**
 * Reading and locking the rows a money send looks at. Account rows are locked in id
 * order, in one statement (`ORDER BY id FOR UPDATE` locks rows in the order it returns
 * them), so two transfers over the same pair of accounts never wait on each other in a
 * cycle: no deadlock, only a queue. Each lock wait is bounded by `lock_timeout`
 * (ACCOUNT_LOCK_WAIT_MS); a lost wait (55P03) is the data layer's contention, rerun up to
 * ACCOUNT_WRITE_ATTEMPTS times, then busy.
 */
import type { Tx } from '../../data/dataLayer.ts';
import { sqlOf } from '../../data/statements.ts';
import type { ChainHead } from '../audit/auditChain.ts';

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
  await sqlOf(tx).query`SELECT set_config('lock_timeout', ${lockWait(lockWaitMs)}, true)`;
}

/** An account row as both reads select it (the balance as text: bigint as the adapter gives it). */
export type AccountRow = Omit<AccountState, 'balanceMinor'> & { balanceMinor: string | bigint };

/** The rows by id, each balance a bigint (and nothing but the state's members). */
export const byId = (rows: AccountRow[]): AccountsById =>
  new Map(rows.map(({ id, userId, name, status, balanceMinor, auditSeq, auditHash }) => [id, { id, userId, name, status, balanceMinor: BigInt(balanceMinor), auditSeq, auditHash }]));

/** Reads the accounts, unlocked (outside a transaction or in one that does not write them). */
export async function readAccounts(db: Queryable, ids: string[]): Promise<AccountsById> {
  return byId(await db.$queryRaw<AccountRow[]>`
    SELECT id::text AS id, user_id::text AS "userId", name, status, balance_minor::text AS "balanceMinor",
           audit_seq AS "auditSeq", audit_hash AS "auditHash"
    FROM accounts WHERE id = ANY(${[...new Set(ids)]}::uuid[])
    ORDER BY id`);
}

/** `lock_timeout` as set_config takes it. */
export const lockWait = (lockWaitMs: number) => `${Math.max(1, Math.round(lockWaitMs))}ms`;

/**
 * Reads the accounts and locks them in id order for the transaction, each lock wait
 * bounded by `lockWaitMs`: the bound is set in the same statement (its one-row subquery
 * runs before the locking node above it takes any row), so it costs no round trip of its
 * own. A direct statement (adr/0021).
 */
export async function lockAccounts(tx: Tx, ids: string[], lockWaitMs: number): Promise<AccountsById> {
  return byId(await sqlOf(tx).query<AccountRow>`
    SELECT a.id::text AS id, a.user_id::text AS "userId", a.name, a.status, a.balance_minor::text AS "balanceMinor",
           a.audit_seq AS "auditSeq", a.audit_hash AS "auditHash"
    FROM (SELECT set_config('lock_timeout', ${lockWait(lockWaitMs)}, true)) AS bound, accounts a
    WHERE a.id = ANY(${[...new Set(ids)]}::uuid[])
    ORDER BY a.id FOR UPDATE OF a`);
}

/**
 * Locks the customer's row before their accounts (the daily ceiling counts across all of
 * them). NO KEY UPDATE: claims and step-ups that reference the customer still insert.
 */
export async function lockCustomer(tx: Tx, userId: string, lockWaitMs: number): Promise<void> {
  await sqlOf(tx).query`
    SELECT u.id::text FROM (SELECT set_config('lock_timeout', ${lockWait(lockWaitMs)}, true)) AS bound, users u
    WHERE u.id = ${userId}::uuid FOR NO KEY UPDATE OF u`;
}
