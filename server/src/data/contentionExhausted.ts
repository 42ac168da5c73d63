/**
 * Thrown by `runInTransaction` when a write with `contentionAttempts` lost its lock wait
 * on every attempt. Not an outage: the caller re-checks what an attempt checks and only
 * then answers busy (503 with a 1 s wait).
 */
const brand = Symbol.for('tidewater.ContentionExhausted');

/** Every attempt of a contended write lost its row lock to another write. */
export class ContentionExhausted extends Error {
  readonly [brand] = true;
  constructor(readonly attempts: number, options?: { cause?: unknown }) {
    super(`lost the row lock on each of ${attempts} attempts`, options);
    this.name = 'ContentionExhausted';
  }
}

/** True for a ContentionExhausted, even across module copies. */
export function isContentionExhausted(error: unknown): error is ContentionExhausted {
  return typeof error === 'object' && error !== null && brand in error;
}
