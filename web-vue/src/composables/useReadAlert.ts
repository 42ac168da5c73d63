/**
 * Ties a page's reads to its one alert slot: the first read with a problem fills the
 * bar with its sentence and a Retry that reruns every failed read; the bar empties
 * while they run again (a second failure is announced afresh, so Retry is never just
 * disabled). Stop and Retry arm the focus landing. A read the visitor stopped is a notice,
 * not an error: stopping was their choice.
 */
import { watch } from 'vue';
import { problemMessage } from '../messages.ts';
import { usePageAlertStore } from '../stores/pageAlert.ts';
import type { useRead } from './useRead.ts';

type Read = Pick<ReturnType<typeof useRead<unknown>>, 'problem' | 'pending' | 'run' | 'stop'>;

/** Connects `reads` to the page's alert; returns the Stop handler for their hints. */
export function useReadAlert(reads: Read[]) {
  const alert = usePageAlertStore();

  function retry(): void {
    alert.arm();
    alert.clear();
    for (const read of reads) if (read.problem.value) void read.run();
  }

  watch(
    () => reads.map((read) => [read.problem.value, read.pending.value] as const),
    () => {
      const failed = reads.find((read) => read.problem.value && !read.pending.value);
      const problem = failed?.problem.value;
      if (problem) alert.show(problemMessage(problem, 'read'), { label: 'Retry', run: retry }, problem.code === 'STOPPED' ? 'notice' : 'problem');
      else if (alert.action?.run === retry) alert.clear();
    },
  );

  /** Stops every pending read (offered from 20 s). */
  function stop(): void {
    alert.arm();
    for (const read of reads) if (read.pending.value) read.stop();
  }

  return { stop, retry };
}
