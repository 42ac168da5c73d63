/**
 * Held sends resolve by themselves when the bank is back (adr/0067): while the signed-in
 * customer has held sends, each is looked up by its key (heldSends.check, quietly: only an
 * outcome is said) with back-off, and at once whenever a read succeeds again (the accounts
 * were read), so a send held through an outage is known within seconds of the database's
 * return, with no visitor action. Lives in the signed-in layout, one per tab.
 */
import { onScopeDispose, watch } from 'vue';
import { useAccountsStore } from '../stores/accounts.ts';
import { useHeldSendsStore } from '../stores/heldSends.ts';

/**
 * The waits between look-ups that found nothing final: 1, 2, 4 s, then every 5 s. A
 * 5 s ceiling keeps "known within 10 s of the database's return" with a look-up's own
 * time included; a held send is rare, so the reads it costs are few.
 */
const RESOLVE_BACKOFF_MS = [1000, 2000, 4000, 5000] as const;
/** A send younger than this is left to the page that sends it (its answer is usually milliseconds away). */
const RESOLVE_AFTER_MS = 2000;

/** Starts resolving this customer's held sends for the caller's scope. */
export function useHeldSendResolver(): void {
  const held = useHeldSendsStore();
  const accounts = useAccountsStore();
  let attempt = 0;
  let timer: ReturnType<typeof setTimeout> | undefined;
  let looking = false;

  async function lookUp(): Promise<void> {
    timer = undefined;
    const due = held.records.filter((record) => !held.busy.has(record.key) && Date.now() - record.firstSentAt >= RESOLVE_AFTER_MS);
    if (due.length > 0) {
      looking = true;
      await Promise.all(due.map((record) => held.check(record, { quiet: true })));
      looking = false;
    }
    schedule();
  }

  function schedule(atOnce = false): void {
    if (held.records.length === 0) {
      attempt = 0;
      return;
    }
    if (looking) return;
    if (timer !== undefined) {
      if (!atOnce) return;
      clearTimeout(timer);
    }
    const wait = atOnce ? 0 : RESOLVE_BACKOFF_MS[Math.min(attempt++, RESOLVE_BACKOFF_MS.length - 1)]!;
    timer = setTimeout(() => void lookUp(), wait);
  }

  watch(
    () => held.records.map((record) => record.key).join(' '),
    () => schedule(),
    { immediate: true },
  );
  // A read that succeeded says the bank answers again: look up at once, back-off afresh.
  watch(
    () => accounts.readAt,
    () => {
      attempt = 0;
      schedule(true);
    },
  );
  onScopeDispose(() => clearTimeout(timer));
}
