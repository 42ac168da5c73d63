/**
 * Confirmation of payee (adr/0046, adr/0050): who a handle belongs to, from the bank's
 * handle look-up (`GET /api/payees/{handle}`, a read the API limits to 30 a minute). A name
 * found is remembered for the visit, so the review, the PIN dialog and the receipt name the
 * payee without asking again; a handle nobody has is asked again next time (it may be
 * taken since). Forgotten when the session ends.
 */
import { defineStore } from 'pinia';
import { shallowReactive, watch } from 'vue';
import type { components } from '@tidewater/spec/openapi';
import { useClients } from '../api/instance.ts';
import { settle, type Result } from '../api/result.ts';
import { useSessionStore } from './session.ts';

/** Who a handle belongs to. */
export type Payee = components['schemas']['Payee'];

/** A handle as the bank takes it (the spec's `Handle`): checked before anything is asked. */
export const HANDLE = /^[a-z0-9_]{3,20}$/;

export const usePayeesStore = defineStore('payees', () => {
  const found = shallowReactive(new Map<string, Payee>());
  const session = useSessionStore();
  watch(
    () => session.status,
    (status) => {
      if (status !== 'signedIn') found.clear();
    },
  );

  /** The payee of `handle`: remembered, or read (a 404 PAYEE_NOT_FOUND when nobody has it). */
  async function lookUp(handle: string): Promise<Result<Payee>> {
    const known = found.get(handle);
    if (known) return { data: known };
    const result = await settle(() => useClients().api.GET('/api/payees/{handle}', { params: { path: { handle } } }));
    if (result.data) found.set(handle, result.data);
    return result;
  }

  return { lookUp };
});
