/**
 * The payee's name as the visitor types a handle (confirmation of payee, adr/0050): once
 * typing stops on a whole handle (a handle's shape, then a pause of 1.5 s or the visitor
 * leaving the field; adr/0074), the bank's look-up says whose it is, or that nobody has it.
 * Until then nothing is said: a pause mid-word is no handle yet. A look-up whose handle was
 * typed over meanwhile is not shown.
 */
import { onScopeDispose, shallowRef, watch } from 'vue';
import type { ApiProblem } from '../api/apiProblem.ts';
import { HANDLE, usePayeesStore, type Payee } from '../stores/payees.ts';

/**
 * 1.5 s: the pause in typing after which a handle counts as whole and is looked up. Longer
 * than a thinking pause mid-word (issue 52 saw 1.2 s), so a half-typed handle is never
 * answered "nobody has it", and the API's 30 look-ups a minute are not spent on fragments.
 */
const WHOLE_HANDLE_PAUSE_MS = 1_500;

/** Where the look-up of the handle as typed stands. */
export type PayeeLookup =
  | { kind: 'none' }
  | { kind: 'looking' }
  | { kind: 'found'; payee: Payee }
  | { kind: 'notFound' }
  | { kind: 'failed'; problem: ApiProblem };

/** Looks up `handle()` as it changes. */
export function usePayeeLookup(handle: () => string) {
  const payees = usePayeesStore();
  const state = shallowRef<PayeeLookup>({ kind: 'none' });
  let pause: ReturnType<typeof setTimeout> | undefined;

  async function lookUp(value: string): Promise<PayeeLookup> {
    state.value = { kind: 'looking' };
    const { data, error } = await payees.lookUp(value);
    const answer: PayeeLookup = data ? { kind: 'found', payee: data } : error.code === 'PAYEE_NOT_FOUND' ? { kind: 'notFound' } : { kind: 'failed', problem: error };
    if (handle().trim() === value) state.value = answer;
    return answer;
  }

  watch(handle, (typed) => {
    clearTimeout(pause);
    const value = typed.trim();
    state.value = { kind: 'none' };
    if (HANDLE.test(value)) pause = setTimeout(() => void lookUp(value), WHOLE_HANDLE_PAUSE_MS);
  });
  onScopeDispose(() => clearTimeout(pause));

  /** The visitor left the field: what it holds is whole, and is looked up at once if it has a handle's shape and is not yet answered. */
  function typingStopped(): void {
    const value = handle().trim();
    if (!HANDLE.test(value) || state.value.kind !== 'none') return;
    clearTimeout(pause);
    void lookUp(value);
  }

  /** The look-up of the handle as typed now (a submit does not wait for the pause): the one shown when it is current. */
  function now(): Promise<PayeeLookup> {
    clearTimeout(pause);
    const value = handle().trim();
    const shown = state.value;
    if (shown.kind === 'found' && shown.payee.handle === value) return Promise.resolve(shown);
    return lookUp(value);
  }

  return { state, now, typingStopped };
}
