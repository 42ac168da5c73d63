/**
 * A refusal an Idempotency-Key stored as its answer (domain/idempotency/idempotency.ts `refuse`): the
 * problem body as the database kept it, sent as it is by the first request and by every
 * replay, so all of them are the same bytes (the first request's `traceId` included, which
 * names the request that decided it). `replayed` marks a replay (`Idempotent-Replayed: true`).
 */
import type { ProblemBody } from '@tidewater/contract/errors';

const brand = Symbol.for('tidewater.StoredProblem');

/** The stored refusal to send: `throw new StoredProblem(body, true)`. */
export class StoredProblem extends Error {
  readonly [brand] = true;
  readonly body: ProblemBody;
  readonly replayed: boolean;

  constructor(body: ProblemBody, replayed: boolean) {
    super(body.detail ?? body.title);
    this.name = 'StoredProblem';
    this.body = body;
    this.replayed = replayed;
  }
}

/** True for a StoredProblem, even across module copies. */
export function isStoredProblem(error: unknown): error is StoredProblem {
  return typeof error === 'object' && error !== null && brand in error;
}
