/**
 * Confirmation of payee (adr/0046, adr/0072) and saved payees: the bank compares the name
 * the payer expects with the one it holds for a handle (`GET /api/payees/{handle}?name=`, a
 * read the API limits to 30 a minute) and answers match, close match (with its name) or no
 * match; a handle nobody has is a no match too. Every check asks the bank (a saved payee
 * picked is checked again, as a typed one is); the page keeps the name it was given for the
 * review, the PIN dialog and the receipt. The payees the customer has paid come from
 * `GET /api/saved-payees`, and are forgotten when the session ends.
 */
import { defineStore } from 'pinia';
import { shallowRef, watch } from 'vue';
import type { components } from '@tidewater/spec/openapi';
import { useClients } from '../api/instance.ts';
import { settle, type Result } from '../api/result.ts';
import { useSessionStore } from './session.ts';

/** The bank's answer to a name and handle. */
export type PayeeCheck = components['schemas']['PayeeCheck'];
/** Someone the customer has paid, by handle or by IBAN. */
export type SavedPayee = components['schemas']['SavedPayee'];

/** A handle as the bank takes it (the spec's `Handle`): checked before anything is asked. */
export const HANDLE = /^[a-z0-9_]{3,20}$/;

export const usePayeesStore = defineStore('payees', () => {
  /** The saved payees as last read, or null before the first read. */
  const saved = shallowRef<SavedPayee[] | null>(null);
  const session = useSessionStore();
  watch(
    () => session.status,
    (status) => {
      if (status !== 'signedIn') saved.value = null;
    },
  );

  /** The bank's answer for `handle` and the `name` the payer expects. */
  function check(handle: string, name: string): Promise<Result<PayeeCheck>> {
    return settle(() => useClients().api.GET('/api/payees/{handle}', { params: { path: { handle }, query: { name } } }));
  }

  /** Reads the payees the customer has paid into `saved`; a failed read keeps what was there (the picker is a convenience). */
  async function loadSaved(): Promise<void> {
    const result = await settle(() => useClients().api.GET('/api/saved-payees'));
    if (result.data) saved.value = result.data.items;
  }

  return { check, saved, loadSaved };
});
