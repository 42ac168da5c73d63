/**
 * Thrown by `runInTransaction` when a write with `contentionAttempts` lost its lock wait
 * on every attempt. Not an outage: the caller re-checks what an attempt checks and only
 * then answers busy (503 with a 1 s wait).
 */
const brand = Symbol.for('tidewater.ContentionExhausted');

/** Every attempt of a contended write lost its row lock to another write. */
export class ContentionExhausted extends Error {
  readonly [brand] = true;
  /**
   * The last lost lock wait (55P03). Deliberately not `cause`: the classifier looks into
   * causes, and must not see a transient error in what is contention, or the retry
   * policy would rerun all the attempts again (measured: busy at 6.5 s instead of 0.2 s).
   */
  readonly attempts: number;
  readonly lastLockError: unknown;
  constructor(attempts: number, lastLockError?: unknown) {
    super(`lost the row lock on each of ${attempts} attempts`);
    this.attempts = attempts;
    this.lastLockError = lastLockError;
    this.name = 'ContentionExhausted';
  }
}

/** True for a ContentionExhausted, even across module copies. */
export function isContentionExhausted(error: unknown): error is ContentionExhausted {
  return typeof error === 'object' && error !== null && brand in error;
}
