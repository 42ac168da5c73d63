import { beforeEach, describe, expect, it } from 'vitest';
import { dismissLandedSend, landedSendsEntry, putLandedSend, readLandedSends, type LandedSend } from './landedSends.ts';

const landed = (key: string, landedAt: number): LandedSend => ({
  key,
  operation: 'deposit',
  holdAs: 'deposit:a1',
  accountId: 'a1',
  payload: { amountMinor: 5555 },
  landedAt,
  movementId: null,
  shownIn: null,
  dismissed: false,
});

beforeEach(() => localStorage.clear());

describe('landed sends in the browser', () => {
  it('keeps each key once, newest first', () => {
    putLandedSend(localStorage, 'u1', landed('k1', 1_000), 2_000);
    putLandedSend(localStorage, 'u1', landed('k2', 1_500), 2_000);
    putLandedSend(localStorage, 'u1', { ...landed('k1', 1_900), shownIn: 'tab' }, 2_000);
    expect(readLandedSends(localStorage, 'u1', 2_000).map((entry) => [entry.key, entry.landedAt, entry.shownIn])).toEqual([
      ['k2', 1_500, null],
      ['k1', 1_000, null],
    ]);
  });

  it('marks a dismissed receipt for every tab, per customer', () => {
    putLandedSend(localStorage, 'u1', landed('k1', 1_000), 2_000);
    putLandedSend(localStorage, 'u2', landed('k1', 1_000), 2_000);
    dismissLandedSend(localStorage, 'u1', 'k1', 2_000);
    expect(readLandedSends(localStorage, 'u1', 2_000)[0]?.dismissed).toBe(true);
    expect(readLandedSends(localStorage, 'u2', 2_000)[0]?.dismissed).toBe(false);
  });

  it('drops entries older than a day and unreadable storage', () => {
    putLandedSend(localStorage, 'u1', landed('k1', 0), 0);
    expect(readLandedSends(localStorage, 'u1', 24 * 60 * 60 * 1000)).toEqual([]);
    localStorage.setItem(landedSendsEntry('u1'), '{not json');
    expect(readLandedSends(localStorage, 'u1')).toEqual([]);
  });
});
