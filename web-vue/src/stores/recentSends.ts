/**
 * The customer's recent sends as the bank lists them (listIdempotencyKeys, adr/0051), for a
 * browser that lost its own record (cleared storage, another device): those still in
 * flight or landed in the last 15 minutes whose outcome this browser neither holds nor
 * knows, so the visitor is told before they send the same money again.
 */
import { defineStore } from 'pinia';
import { computed, shallowRef, watch } from 'vue';
import type { components } from '@tidewater/spec/openapi';
import { useClients } from '../api/instance.ts';
import { settle } from '../api/result.ts';
import { useAccountsStore } from './accounts.ts';
import { bankKeyLabel } from './heldSendLabel.ts';
import { useHeldSendsStore } from './heldSends.ts';
import { useSessionStore } from './session.ts';

type KeyStatus = components['schemas']['IdempotencyKeyStatus'];

/** One send the bank holds that this browser did not know of. */
export interface RecentSend {
  key: string;
  state: 'inFlight' | 'landed';
  label: string;
  claimedAt: number | null;
}

export const useRecentSendsStore = defineStore('recentSends', () => {
  const held = useHeldSendsStore();
  const accounts = useAccountsStore();
  const listed = shallowRef<KeyStatus[]>([]);
  const session = useSessionStore();
  watch(
    () => session.user?.id,
    () => (listed.value = []),
  );

  /** Asks the bank once (a read; a failure shows nothing: the held sends still stand). */
  async function ask(): Promise<void> {
    const { data } = await settle(() => useClients().api.GET('/api/idempotency-keys', {}));
    listed.value = data?.items ?? [];
  }

  /** The listed sends in flight or landed that this browser does not know. */
  const unknownHere = computed<RecentSend[]>(() =>
    listed.value
      .filter((item) => (item.state === 'inFlight' || item.state === 'landed') && !held.knownHere(item.key))
      .map((item) => ({
        key: item.key,
        state: item.state as RecentSend['state'],
        label: bankKeyLabel(item, (id) => accounts.byId(id)?.name),
        claimedAt: item.claimedAt === null ? null : Date.parse(item.claimedAt),
      })),
  );

  return { ask, unknownHere };
});
