/**
 * Ties a page's reads to its one alert slot and its one wait (adr/0009, adr/0054).
 *
 * - The alert: the first read with a problem fills the bar with its sentence and a Retry
 *   that reruns every failed read; the bar empties while they run again (a second failure
 *   is announced afresh, so Retry is never just disabled). A read the visitor stopped is a
 *   notice, not an error: stopping was their choice.
 * - The wait: one hint and one Stop for the page, however many reads wait: the hint of the
 *   read that has waited longest, Stop from 20 s, stopping every pending read. An outage a
 *   waiting read met, or the browser being offline, is named at once in its place
 *   (readWaitHint, adr/0074).
 * - Offline: a read that failed while the browser is offline says so, and the failed reads
 *   run again by themselves once it is back online.
 * - The landing: Stop and Retry arm it. A Retry that failed again lands focus on the new
 *   Retry (useWaitLanding); one that loaded everything says "Loaded." and lands focus on
 *   the page's first action (the element marked `data-retry-landing`; its heading when
 *   none is), unless the visitor has moved focus since.
 */
import { computed, nextTick, ref, watch, type Ref } from 'vue';
import type { ReadRetryCause } from '../api/resilientFetch.ts';
import { problemMessage, readWaitMessages, waitHints } from '../messages.ts';
import { usePageAlertStore } from '../stores/pageAlert.ts';
import { readWaitHint } from './sendWords.ts';
import { useOnline } from './useOnline.ts';
import type { useRead } from './useRead.ts';
import { focusIsUnmoved } from './useWaitLanding.ts';

type Read = Pick<ReturnType<typeof useRead<unknown>>, 'problem' | 'pending' | 'phase' | 'hint' | 'run' | 'stop'> & { outage: Readonly<Ref<ReadRetryCause | null>> };

/** Where focus goes after a Retry that loaded: the page's first action, else its heading. */
const landing = (): HTMLElement | null => document.querySelector<HTMLElement>('main [data-retry-landing]') ?? document.querySelector<HTMLElement>('main h1');

/** Connects `reads` to the page's alert; returns the page's one wait (hint, Stop) and its handlers. */
export function useReadAlert(reads: Read[]) {
  const alert = usePageAlertStore();
  const online = useOnline();
  const reloaded = ref(false);
  const retryAction = { label: 'Retry', run: () => void retry() };

  /** Reruns the failed reads; `land`: the visitor pressed Retry, so focus may land (an automatic rerun never moves it). */
  async function retry(land = true): Promise<void> {
    reloaded.value = false;
    if (land) alert.arm();
    alert.clear();
    const failed = reads.filter((read) => read.problem.value);
    await Promise.all(failed.map((read) => read.run()));
    if (failed.length === 0 || failed.some((read) => read.problem.value || read.pending.value)) return;
    reloaded.value = true;
    if (!land) return;
    const from = alert.landingFrom;
    alert.disarm();
    await nextTick();
    if (from !== undefined && focusIsUnmoved(from, document.activeElement, document.body)) landing()?.focus();
  }

  watch(
    () => [online.value, ...reads.map((read) => [read.problem.value, read.pending.value] as const)],
    () => {
      const failed = reads.find((read) => read.problem.value && !read.pending.value);
      const problem = failed?.problem.value;
      if (problem && problem.code !== 'STOPPED' && !online.value) alert.show(readWaitMessages.offline, retryAction, 'problem');
      else if (problem) alert.show(problemMessage(problem, 'read'), retryAction, problem.code === 'STOPPED' ? 'notice' : 'problem');
      else if (alert.action === retryAction) alert.clear();
    },
  );
  // Back online: what failed meanwhile loads by itself, as the offline sentence promised.
  watch(online, (isOnline) => {
    if (isOnline && reads.some((read) => read.problem.value && read.problem.value.code !== 'STOPPED')) void retry(false);
  });

  /** Stops every pending read (offered from 20 s). */
  function stop(): void {
    reloaded.value = false;
    alert.arm();
    for (const read of reads) if (read.pending.value) read.stop();
  }

  const waiting = computed(() => reads.filter((read) => read.pending.value));
  /** The page's one hint: offline, an outage met, else the longest wait's; "Loaded." once a wait that said something (or a Retry) ends. */
  const hint = computed(() => {
    if (waiting.value.length > 0) {
      const wait = waiting.value.some((read) => read.phase.value === 'still') ? 'still' : waiting.value.some((read) => read.phase.value === 'slow') ? 'slow' : 'quiet';
      const outage = waiting.value.find((read) => read.outage.value !== null)?.outage.value ?? null;
      return readWaitHint({ wait, online: online.value, outage });
    }
    return reloaded.value || reads.some((read) => read.hint.value === waitHints.loaded) ? waitHints.loaded : '';
  });

  return {
    stop,
    retry,
    hint,
    /** "Loaded." is said but not shown. */
    hintIsUnseen: computed(() => hint.value === waitHints.loaded),
    canStop: computed(() => waiting.value.some((read) => read.phase.value === 'still')),
  };
}
