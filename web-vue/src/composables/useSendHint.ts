/**
 * The hint under a plain write's button (sign-in, a rename): nothing for 5 s, "Taking
 * longer than usual…", then "Still trying…". A keyed send's words are sendWords.ts's.
 */
import { computed, type Ref } from 'vue';
import { waitHints } from '../messages.ts';
import { useWaitPhase } from './useWaitPhase.ts';

/** The hint for a plain write (sign-in, a rename): the same phases, no key. */
export function useWriteHint(pending: Ref<boolean>) {
  const { phase } = useWaitPhase(pending);
  return computed(() => (!pending.value ? '' : phase.value === 'slow' ? waitHints.slow : phase.value === 'still' ? waitHints.still : ''));
}
