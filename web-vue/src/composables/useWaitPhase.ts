/**
 * How long a wait has lasted, in the three phases the visitor sees (adr/0009):
 * 'quiet' for 5 s, 'slow' ("Taking longer than usual…") from 5 s, 'still'
 * ("Still trying…") from 20 s. Timed on the wait itself, not on a request, so a PIN
 * dialog left open never counts. Also remembers whether the wait said anything, so a
 * read can say "Loaded." when it ends.
 */
import { onScopeDispose, ref, watch, type Ref } from 'vue';
import { WAIT_HINT_SLOW_MS, WAIT_HINT_STILL_MS } from '../api/timings.ts';

/** The phases of a wait. */
export type WaitPhase = 'quiet' | 'slow' | 'still';

/** Follows `pending`: the phase of the current wait and whether the last wait said something. */
export function useWaitPhase(pending: Ref<boolean>) {
  const phase = ref<WaitPhase>('quiet');
  const saidSomething = ref(false);
  let timers: ReturnType<typeof setTimeout>[] = [];

  function clearTimers() {
    timers.forEach(clearTimeout);
    timers = [];
  }

  watch(
    pending,
    (isPending) => {
      clearTimers();
      phase.value = 'quiet';
      if (!isPending) return;
      saidSomething.value = false;
      timers.push(
        setTimeout(() => {
          phase.value = 'slow';
          saidSomething.value = true;
        }, WAIT_HINT_SLOW_MS),
        setTimeout(() => (phase.value = 'still'), WAIT_HINT_STILL_MS),
      );
    },
    { immediate: true },
  );
  onScopeDispose(clearTimers);

  return { phase, saidSomething };
}
