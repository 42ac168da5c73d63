/**
 * The payee's name as the visitor types a handle (confirmation of payee, adr/0050): once
 * typing pauses (400 ms) on a well-formed handle, the bank's look-up says whose it is, or
 * that nobody has it. A look-up whose handle was typed over meanwhile is not shown.
 */
import { onScopeDispose, shallowRef, watch } from 'vue';
import type { ApiProblem } from '../api/apiProblem.ts';
import { HANDLE, usePayeesStore, type Payee } from '../stores/payees.ts';

/** The pause in typing after which a handle is looked up: long enough not to spend the 30 a minute on every key. */
const PAUSE_MS = 400;

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
    if (HANDLE.test(value)) pause = setTimeout(() => void lookUp(value), PAUSE_MS);
  });
  onScopeDispose(() => clearTimeout(pause));

  /** The look-up of the handle as typed now (a submit does not wait for the pause): the one shown when it is current. */
  function now(): Promise<PayeeLookup> {
    clearTimeout(pause);
    const value = handle().trim();
    const shown = state.value;
    if (shown.kind === 'found' && shown.payee.handle === value) return Promise.resolve(shown);
    return lookUp(value);
  }

  return { state, now };
}
