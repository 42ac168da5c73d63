/** What /api/ready remembers of a full disk (writeRefusals.ts): a window, not a switch. */
import { describe, expect, it } from 'vitest';
import { noteWriteRefusal, writesRefusedWithin } from './writeRefusals.ts';

describe('writes refused for lack of resources', () => {
  it('keep the process not ready for the window after the last refusal, then fade with no restart', () => {
    noteWriteRefusal(1_000);
    expect(writesRefusedWithin(10_000, 1_000)).toBe(true);
    expect(writesRefusedWithin(10_000, 10_999)).toBe(true);
    expect(writesRefusedWithin(10_000, 11_000)).toBe(false);
    noteWriteRefusal(20_000); // still full: the next refusal renews it
    expect(writesRefusedWithin(10_000, 25_000)).toBe(true);
  });
});
