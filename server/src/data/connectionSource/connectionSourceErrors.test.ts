/**
 * `isConnectionSourceError` knows the source's errors, also an instance of a duplicated copy
 * of the module (by its brand), and nothing else.
 */
import { describe, expect, it } from 'vitest';
import { ConnectionSourceError, isConnectionSourceError } from './connectionSourceErrors.ts';

describe('ConnectionSourceError', () => {
  it.each([
    [new ConnectionSourceError('empty', 'x'), true],
    [{ [Symbol.for('tidewater.ConnectionSourceError')]: true }, true], // a duplicated module's instance
    [new Error('x'), false],
    [null, false],
    [undefined, false],
  ])('isConnectionSourceError(%o) = %s', (error, want) => {
    expect(isConnectionSourceError(error)).toBe(want);
  });
});
