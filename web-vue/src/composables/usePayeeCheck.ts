/**
 * Confirmation of payee as the visitor types (adr/0072): once typing pauses (400 ms) on a
 * well-formed handle and a name, the bank says whether the name matches the handle's
 * holder, nearly matches (and whose it is), or does not. A check whose handle or name was
 * typed over meanwhile is not shown.
 */
import { onScopeDispose, shallowRef, watch } from 'vue';
import type { ApiProblem } from '../api/apiProblem.ts';
import { HANDLE, usePayeesStore } from '../stores/payees.ts';

/** The pause in typing after which a handle is checked: long enough not to spend the 30 a minute on every key. */
const PAUSE_MS = 400;

/** Where the check of the handle and name as typed stands. */
export type PayeeCheckState =
  | { kind: 'none' }
  | { kind: 'looking' }
  | { kind: 'match'; name: string }
  | { kind: 'closeMatch'; name: string }
  | { kind: 'noMatch' }
  | { kind: 'failed'; problem: ApiProblem };

/** What the payer typed, trimmed, or null while it cannot be checked. */
type Typed = { handle: string; name: string } | null;

/** Checks `payee()` (the handle and the name expected) as they change. */
export function usePayeeCheck(payee: () => { handle: string; name: string }) {
  const payees = usePayeesStore();
  const state = shallowRef<PayeeCheckState>({ kind: 'none' });
  let pause: ReturnType<typeof setTimeout> | undefined;
  let shownFor = '';

  const typed = (): Typed => {
    const handle = payee().handle.trim();
    const name = payee().name.trim();
    return HANDLE.test(handle) && name !== '' ? { handle, name } : null;
  };
  const same = (a: Typed, b: Typed) => JSON.stringify(a) === JSON.stringify(b);

  async function check(asked: NonNullable<Typed>): Promise<PayeeCheckState> {
    state.value = { kind: 'looking' };
    const { data, error } = await payees.check(asked.handle, asked.name);
    const answer: PayeeCheckState = error
      ? { kind: 'failed', problem: error }
      : data.result === 'match' && data.name
        ? { kind: 'match', name: data.name }
        : data.result === 'close_match' && data.name
          ? { kind: 'closeMatch', name: data.name }
          : { kind: 'noMatch' };
    if (same(typed(), asked)) {
      state.value = answer;
      shownFor = JSON.stringify(asked);
    }
    return answer;
  }

  watch(
    () => JSON.stringify(typed()),
    () => {
      clearTimeout(pause);
      state.value = { kind: 'none' };
      const asked = typed();
      if (asked) pause = setTimeout(() => void check(asked), PAUSE_MS);
    },
  );
  onScopeDispose(() => clearTimeout(pause));

  /** The check of what is typed now (a submit does not wait for the pause): the one shown when it is current; null when nothing can be checked. */
  function now(): Promise<PayeeCheckState | null> {
    clearTimeout(pause);
    const asked = typed();
    if (!asked) return Promise.resolve(null);
    const shown = state.value;
    if ((shown.kind === 'match' || shown.kind === 'closeMatch') && shownFor === JSON.stringify(asked)) return Promise.resolve(shown);
    return check(asked);
  }

  return { state, now };
}
