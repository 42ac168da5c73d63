/**
 * Bulkhead at an account (adr/0024): at most this process's share of ACCOUNT_SENDS_AT_ONCE
 * (`concurrency`, runMoneySend.ts) of its money sends run their transaction on one
 * account at a time; the others wait here, in the
 * order they came, holding no connection, until a turn is free or their request's signal
 * fires (the deadline: 503, nothing applied; a hang-up: 499).
 *
 * PostgreSQL serialises the sends on the account's row lock anyway. Without this line, 500
 * sends into one account put every pooled connection of every worker in that lock's queue:
 * two dozen backends woken in turn for one row, and no connection left for the sends to
 * other accounts. The row lock stays the truth (other workers and processes have lines of
 * their own); this is only where the waiting happens, so it is correct per process.
 *
 * A send takes ONE turn, on the smallest id of the accounts it locks: a transfer A→B and
 * one B→A line up together, and a send never holds one turn while waiting for another.
 * Its wait in line counts against its lock waits (runMoneySend.ts): an account held for a
 * whole send's worth of lock waits answers busy to those in line too, not the deadline.
 */
import { bulkhead, type ReleaseTurn, type Bulkhead } from '../bulkhead.ts';

/** The account lines of one process. */
export function accountBulkhead(concurrency: number) {
  const lines = new Map<string, Bulkhead>();
  const forget = (key: string, line: Bulkhead) => {
    const { running, waiting } = line.state();
    if (running === 0 && waiting === 0 && lines.get(key) === line) lines.delete(key);
  };

  return {
    /**
     * Waits for a turn at the accounts `accountIds` (their smallest id); throws the signal's
     * reason when it fires first, or NoTurnInTime after `maxWaitMs`.
     */
    async take(accountIds: readonly string[], signal?: AbortSignal, maxWaitMs?: number): Promise<ReleaseTurn> {
      if (accountIds.length === 0) return () => {};
      const key = accountIds.reduce((least, id) => (id < least ? id : least));
      let line = lines.get(key);
      if (!line) {
        line = bulkhead(concurrency, Infinity, () => new Error('an account line has no end'));
        lines.set(key, line);
      }
      const taken = line;
      try {
        const release = await taken.take(signal, maxWaitMs);
        return () => {
          release();
          forget(key, taken);
        };
      } catch (error) {
        forget(key, taken);
        throw error;
      }
    },
    /** For tests: the accounts with a line now. */
    lines: () => lines.size,
  };
}
