/**
 * The hint under a money send's button: nothing for 5 s, "Taking longer than usual…",
 * then "Still trying… Keep this page open." while the send holds its key (a reload
 * would lose it).
 */
import { computed, type Ref } from 'vue';
import { waitHints } from '../messages.ts';
import { useWaitPhase } from './useWaitPhase.ts';

/** The hint text for a send that is `pending` and `holdsKey`. */
export function useSendHint(pending: Ref<boolean>, holdsKey: Ref<boolean>) {
  const { phase } = useWaitPhase(pending);
  return computed(() => {
    if (!pending.value || phase.value === 'quiet') return '';
    if (phase.value === 'slow') return waitHints.slow;
    return holdsKey.value ? waitHints.stillKeepOpen : waitHints.still;
  });
}

/** The hint for a plain write (sign-in, a rename): the same phases, no key. */
export function useWriteHint(pending: Ref<boolean>) {
  const { phase } = useWaitPhase(pending);
  return computed(() => (!pending.value ? '' : phase.value === 'slow' ? waitHints.slow : phase.value === 'still' ? waitHints.still : ''));
}
