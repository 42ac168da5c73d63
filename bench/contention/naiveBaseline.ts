/**
 * The naive baseline, straight on the same database through `pg` (a pool of the API's
 * size): optimistic concurrency with a version check and ACCOUNT_WRITE_ATTEMPTS (8)
 * attempts, no lock ordering, no wait between attempts. Each attempt reads the rows,
 * then updates each only `WHERE version = <read>`; a lost race (0 rows), a deadlock or a
 * serialization failure ends the attempt. After 8 lost attempts the send is "busy". It
 * writes ledger rows (no audit rows: the baseline is not the bank).
 */
import pg from 'pg';
import type { Outcome, Sample } from './stats.ts';

const attempts = 8;

/** A lost race: the version moved, or the database broke a deadlock / serialization conflict. */
class LostRace extends Error {}
const lostRace = (error: unknown) => error instanceof LostRace || ['40P01', '40001'].includes((error as { code?: string }).code ?? '');

interface Change {
  accountId: string;
  amountMinor: bigint;
  kind: string;
}

/** Applies `changes` (in the order given) with version checks; refuses when a balance would go below zero. */
async function attempt(client: pg.PoolClient, changes: Change[]): Promise<'ok' | 'refused'> {
  await client.query('BEGIN');
  try {
    const read = new Map<string, { balance: bigint; version: number }>();
    for (const change of changes) {
      const { rows } = await client.query<{ balance_minor: string; version: number }>('SELECT balance_minor, version FROM accounts WHERE id = $1', [change.accountId]);
      read.set(change.accountId, { balance: BigInt(rows[0]!.balance_minor), version: rows[0]!.version });
    }
    for (const change of changes) {
      const before = read.get(change.accountId)!;
      const after = before.balance + change.amountMinor;
      if (after < 0n) {
        await client.query('ROLLBACK');
        return 'refused';
      }
      const updated = await client.query('UPDATE accounts SET balance_minor = $2, version = version + 1 WHERE id = $1 AND version = $3', [change.accountId, after.toString(), before.version]);
      if (updated.rowCount !== 1) throw new LostRace();
      await client.query(
        'INSERT INTO ledger_entries (id, account_id, kind, amount_minor, balance_after_minor) VALUES (gen_random_uuid(), $1, $2, $3, $4)',
        [change.accountId, change.kind, change.amountMinor.toString(), after.toString()],
      );
    }
    await client.query('COMMIT');
    return 'ok';
  } catch (error) {
    await client.query('ROLLBACK').catch(() => {});
    throw error;
  }
}

/** One send through the baseline: up to 8 attempts, none started after `giveUpAt` (epoch ms). */
async function send(pool: pg.Pool, changes: Change[], giveUpAt: number): Promise<Omit<Sample, 'ms'>> {
  const late = () => Date.now() > giveUpAt;
  for (let n = 0; n < attempts; n++) {
    if (late()) return { outcome: 'other', detail: 'gave up at the time bound' };
    const client = await pool.connect();
    try {
      // The wait for a connection may itself have run past the bound.
      if (late()) return { outcome: 'other', detail: 'gave up at the time bound' };
      return { outcome: (await attempt(client, changes)) as Outcome };
    } catch (error) {
      if (!lostRace(error)) return { outcome: 'other', detail: (error as Error).message };
    } finally {
      client.release();
    }
  }
  return { outcome: 'busy' };
}

/**
 * The baseline's three sends over one pool. `giveUpAt()` bounds a run: opposite transfers
 * deadlock, and PostgreSQL needs `deadlock_timeout` (1 s) to notice each time.
 */
export function naiveBaseline(pool: pg.Pool, giveUpAt: () => number) {
  return {
    deposit: (accountId: string, amountMinor: number) => send(pool, [{ accountId, amountMinor: BigInt(amountMinor), kind: 'deposit' }], giveUpAt()),
    transfer: (fromAccountId: string, toAccountId: string, amountMinor: number) =>
      send(pool, [
        { accountId: fromAccountId, amountMinor: -BigInt(amountMinor), kind: 'transfer_out' },
        { accountId: toAccountId, amountMinor: BigInt(amountMinor), kind: 'transfer_in' },
      ], giveUpAt()),
    withdraw: (accountId: string, amountMinor: number) => send(pool, [{ accountId, amountMinor: -BigInt(amountMinor), kind: 'withdrawal' }], giveUpAt()),
  };
}
