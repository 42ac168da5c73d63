/** The error a request's deadline raises: no statement starts, and no commit, after it. */
const brand = Symbol.for('tidewater.DeadlineExceeded');

/** The request's deadline fired before its work finished. */
export class DeadlineExceeded extends Error {
  readonly [brand] = true;
  readonly deadlineMs: number;
  constructor(deadlineMs: number) {
    super(`the request's deadline of ${deadlineMs} ms passed`);
    this.deadlineMs = deadlineMs;
    this.name = 'DeadlineExceeded';
  }
}

/** True for a DeadlineExceeded, even across module copies. */
export function isDeadlineExceeded(error: unknown): error is DeadlineExceeded {
  return typeof error === 'object' && error !== null && brand in error;
}
