/**
 * One read a page shows (adr/0009): its data or its problem, the phase of its
 * wait, and Stop from 20 s. The request layer does the one retry inside the same call,
 * so the hints time the whole read; an outage its first attempt met (or the browser being
 * offline) is named at once in place of them (adr/0074). A read that said something says
 * "Loaded." when it loads. A newer run supersedes an older one.
 */
import { computed, ref, shallowRef } from 'vue';
import type { ApiProblem } from '../api/apiProblem.ts';
import type { Result } from '../api/result.ts';
import { waitHints } from '../messages.ts';
import { lastReadOutage } from './readOutage.ts';
import { readWaitHint } from './sendWords.ts';
import { useOnline } from './useOnline.ts';
import { useWaitPhase } from './useWaitPhase.ts';

/** A read's state and controls. */
export function useRead<T>(load: (signal: AbortSignal) => Promise<Result<T>>) {
  const data = shallowRef<T>();
  const problem = shallowRef<ApiProblem | null>(null);
  const pending = ref(false);
  const loadedNote = ref(false);
  const { phase, saidSomething } = useWaitPhase(pending);
  const online = useOnline();
  const startedAt = ref(0);
  /** What this run met before its retry: an outage noted since it started, while it still waits. */
  const outage = computed(() => {
    const met = lastReadOutage.value;
    return pending.value && met !== null && met.at >= startedAt.value ? met.cause : null;
  });
  let controller: AbortController | null = null;

  /** Runs (or reruns) the read; resolves with its result. */
  async function run(): Promise<Result<T>> {
    controller?.abort();
    const mine = new AbortController();
    controller = mine;
    problem.value = null;
    loadedNote.value = false;
    startedAt.value = Date.now();
    pending.value = true;
    const result = await load(mine.signal);
    if (controller !== mine) return result; // superseded
    controller = null;
    const said = saidSomething.value || outage.value !== null || !online.value;
    pending.value = false;
    if (result.error) problem.value = result.error;
    else {
      data.value = result.data;
      loadedNote.value = said;
    }
    return result;
  }

  /** Stops the read (offered from 20 s). */
  function stop(): void {
    controller?.abort();
  }

  /** The hint under the control that started the wait: "", a wait hint, or "Loaded.". */
  const hint = computed(() => {
    if (pending.value) return readWaitHint({ wait: phase.value, online: online.value, outage: outage.value });
    return loadedNote.value ? waitHints.loaded : '';
  });

  return {
    data,
    problem,
    pending,
    phase,
    /** The outage this run met before its retry (named in place of the wait hints), or null. */
    outage,
    online,
    hint,
    /** "Loaded." is said but not shown. */
    hintIsUnseen: computed(() => !pending.value && loadedNote.value),
    canStop: computed(() => pending.value && phase.value === 'still'),
    /** What it shows may be out of date: its rerun failed, was stopped, or has taken 5 s or more (adr/0054). */
    mayBeStale: computed(() => problem.value !== null || (pending.value && phase.value !== 'quiet')),
    run,
    stop,
  };
}
