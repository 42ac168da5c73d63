/**
 * Bulkhead at an account (adr/0024): at most this process's share of ACCOUNT_SENDS_AT_ONCE
 * (`concurrency`, runMoneySend.ts) of its money sends hold a permit to run their statement
 * on one account at a time; the others wait in the account's queue, in the order they
 * came, holding no connection, until a permit is free or their request's signal fires (the
 * deadline: 503, nothing applied; a hang-up: 499).
 *
 * PostgreSQL serialises the sends on the account's row lock anyway. Without this bulkhead,
 * 500 sends into one account put every pooled connection of every worker in that lock's
 * queue: two dozen backends woken in turn for one row, and no connection left for the
 * sends to other accounts. The row lock stays the truth (other workers and processes have
 * bulkheads of their own); this is only where the waiting happens, so it is correct per
 * process.
 *
 * A send acquires ONE permit, on the smallest id of the accounts it locks: a transfer A→B
 * and one B→A queue together, and a send never holds one permit while waiting for another.
 * Its wait in the queue counts against its lock waits (runMoneySend.ts): an account held
 * for a whole send's worth of lock waits answers busy to those queued too, not the deadline.
 * A send waits here before it claims its key: its claim is written by its one statement
 * (adr/0076), and this process answers a second request with the key meanwhile
 * (idempotency/keysOnTheirWay.ts).
 */
import { bulkhead, type ReleasePermit, type Bulkhead } from '../bulkhead.ts';

/** The account bulkheads of one process, one per account that has a send running or queued. */
export function accountBulkhead(concurrency: number) {
  const perAccount = new Map<string, Bulkhead>();
  const forget = (key: string, account: Bulkhead) => {
    const { running, waiting } = account.state();
    if (running === 0 && waiting === 0 && perAccount.get(key) === account) perAccount.delete(key);
  };

  return {
    /**
     * Waits for a permit at the accounts `accountIds` (their smallest id); throws the
     * signal's reason when it fires first, or PermitWaitTimeout after `maxWaitMs`.
     */
    async acquire(accountIds: readonly string[], signal?: AbortSignal, maxWaitMs?: number): Promise<ReleasePermit> {
      if (accountIds.length === 0) return () => {};
      const key = accountIds.reduce((least, id) => (id < least ? id : least));
      let account = perAccount.get(key);
      if (!account) {
        account = bulkhead(concurrency, Infinity, () => new Error('an account queue has no end'));
        perAccount.set(key, account);
      }
      const acquired = account;
      try {
        const release = await acquired.acquire(signal, maxWaitMs);
        return () => {
          release();
          forget(key, acquired);
        };
      } catch (error) {
        forget(key, acquired);
        throw error;
      }
    },
    /** For tests: the accounts with a permit held or a send queued now. */
    accountsInUse: () => perAccount.size,
  };
}
