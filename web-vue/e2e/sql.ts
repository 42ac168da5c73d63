/**
 * The suite's database as the specs reach it behind the API's back, through the money
 * tests' own helpers (test-support's bankDatabase.ts): hold an account's row lock from a
 * separate connection, wait until a send queues behind it, read what a key wrote.
 */
import type pg from 'pg';
import { holdingAccount, keyState, query, untilSomeoneWaitsForALock, untilNoOneWaitsForALock } from '@tidewater/test-support/bankDatabase';
import { stackEnv } from './stackTimings.ts';

function url(): string {
  const value = process.env[stackEnv.databaseUrl];
  if (!value) throw new Error(`${stackEnv.databaseUrl} is not set: run through playwright.config.ts`);
  return value;
}

/** Runs `fn` while a separate connection holds the account's row lock (every write to it queues). */
export const whileAccountIsLocked = <T>(accountId: string, fn: (inside: pg.Client) => Promise<T>) => holdingAccount(url(), accountId, fn);

/** Resolves once some transaction waits for a row lock. */
export const untilASendWaitsForTheLock = (timeoutMs = 15_000) => untilSomeoneWaitsForALock(url(), timeoutMs);
/** Resolves once no send waits for a lock any more (a cancelled statement took its cancel). */
export const untilNoSendWaitsForTheLock = (timeoutMs = 15_000) => untilNoOneWaitsForALock(url(), timeoutMs);

/** The ledger rows a key wrote, and its idempotency record. */
export const whatTheKeyWrote = (key: string) => keyState(url(), key);

/** The deposits of `amountMinor` into an account, as the ledger holds them (how many times the bank moved that money). */
export const depositsOf = (accountId: string, amountMinor: number) =>
  query<{ idempotency_key: string }>(url(), 'SELECT idempotency_key FROM ledger_entries WHERE account_id = $1 AND amount_minor = $2', [accountId, amountMinor]);

/** An account's balance as the database holds it (cents), and the ledger rows that made it. */
export async function balanceInDatabase(accountId: string): Promise<{ balanceMinor: number; movements: number }> {
  const [row] = await query<{ balance: string; movements: string }>(
    url(),
    'SELECT a.balance_minor::text AS balance, (SELECT count(*) FROM ledger_entries l WHERE l.account_id = a.id)::text AS movements FROM accounts a WHERE a.id = $1',
    [accountId],
  );
  if (!row) throw new Error(`no account ${accountId}`);
  return { balanceMinor: Number(row.balance), movements: Number(row.movements) };
}

/** An account's balance and its movements' sum, as the database holds them (minor units, as text). */
export const ledgerOf = async (accountId: string) =>
  (await query<{ balance: string; sum: string }>(url(), 'SELECT a.balance_minor::text AS balance, COALESCE((SELECT SUM(amount_minor) FROM ledger_entries WHERE account_id = a.id), 0)::text AS sum FROM accounts a WHERE a.id = $1', [accountId]))[0]!;
