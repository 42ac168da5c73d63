/** A COMMIT's bound: past it, its outcome is unknown (adr/0006). */

/** A COMMIT that did not answer within its bound: it may or may not have landed. */
export class CommitOutcomeUnknown extends Error {
  readonly code = 'COMMIT_OUTCOME_UNKNOWN';
  constructor(timeoutMs: number, why = `the commit did not answer within ${timeoutMs} ms`) {
    super(`${why}; its outcome is unknown`);
    this.name = 'CommitOutcomeUnknown';
  }
}

/**
 * Runs `work`, failing after `ms`; `settled` always learns the real outcome later. One
 * promise and one timer per COMMIT: this runs on every money send.
 */
export function bounded<T>(work: Promise<T>, ms: number, settled: (error?: unknown) => void): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const timer = setTimeout(() => reject(new CommitOutcomeUnknown(ms)), ms);
    work.then(
      (value) => {
        clearTimeout(timer);
        settled();
        resolve(value);
      },
      (error: unknown) => {
        clearTimeout(timer);
        settled(error);
        reject(error);
      },
    );
  });
}
