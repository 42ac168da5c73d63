/** A COMMIT's bound: past it, its outcome is unknown (adr/0006). */

/** A COMMIT that did not answer within its bound: it may or may not have landed. */
export class CommitOutcomeUnknown extends Error {
  readonly code = 'COMMIT_OUTCOME_UNKNOWN';
  constructor(timeoutMs: number, why = `the commit did not answer within ${timeoutMs} ms`) {
    super(`${why}; its outcome is unknown`);
    this.name = 'CommitOutcomeUnknown';
  }
}
