/**
 * Keyed sends the visitor left by an in-app link before their answer was known (adr/0013):
 * the page's send state (its Idempotency-Key, the payload sent with it,
 * the answers so far) and the page's own state (its form), by the page's identity
 * (`deposit:<accountId>`, `transfer`, …). The page takes them back when the visitor
 * returns, so "Try again" sends the same key, never a new one. A request still in flight
 * when the visitor left answers into the same state.
 *
 * They live as long as the app: a reload or a new tab still loses them, so while any held
 * send's answer is unknown the browser asks before unloading. They are dropped when the
 * session ends.
 */
import { defineStore } from 'pinia';
import { computed, shallowReactive, watch } from 'vue';
import type { SendState } from '../composables/sendState.ts';
import { useBeforeUnload } from '../composables/useBeforeUnload.ts';
import { useSessionStore } from './session.ts';

/** One held send: its state and the page's own. */
export interface HeldSend<P = unknown, T = unknown, K = unknown> {
  state: SendState<P, T>;
  kept: K;
}

export const useHeldSendsStore = defineStore('heldSends', () => {
  const held = shallowReactive(new Map<string, HeldSend>());
  const session = useSessionStore();
  watch(
    () => session.status,
    (status) => {
      if (status !== 'signedIn') held.clear();
    },
  );
  /** Some held send's answer is still unknown (an answer that arrived since needs no question). */
  const unknown = computed(() =>
    [...held.values()].some(({ state }) => state.key.value !== null || state.phase.value === 'pending' || state.phase.value === 'verifyRequired'),
  );
  useBeforeUnload(unknown);

  /** The send held for the page `id`, if any. */
  function take<P, T, K>(id: string): HeldSend<P, T, K> | undefined {
    return held.get(id) as HeldSend<P, T, K> | undefined;
  }

  /** Holds `send` for the page `id` (the page is being left with its answer unknown). */
  function keep(id: string, send: HeldSend): void {
    held.set(id, send);
  }

  /** Forgets the page `id`'s send (its answer is known). */
  function drop(id: string): void {
    held.delete(id);
  }

  return { take, keep, drop, count: computed(() => held.size), unknown };
});
