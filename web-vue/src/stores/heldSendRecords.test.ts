import { beforeEach, describe, expect, it } from 'vitest';
import { HELD_SEND_LIFETIME_MS, rememberSettled, settledKeys, storedList } from './heldSendRecords.ts';

beforeEach(() => localStorage.clear());

describe('what a browser keeps about its sends', () => {
  it.each([
    ['missing', null],
    ['not JSON', '{oops'],
    ['not a list', '{"key":"k1"}'],
  ])('reads a %s entry as an empty list', (_, stored) => {
    if (stored !== null) localStorage.setItem('entry', stored);
    expect(storedList(localStorage, 'entry')).toEqual([]);
  });

  it('remembers settled keys within their lifetime, each once, the last 100', () => {
    rememberSettled(localStorage, 'u1', 'old', 0);
    rememberSettled(localStorage, 'u1', 'k1', 1_000);
    rememberSettled(localStorage, 'u1', 'k1', 2_000);
    expect([...settledKeys(localStorage, 'u1', 2_000)]).toEqual(['old', 'k1']);
    expect([...settledKeys(localStorage, 'u1', HELD_SEND_LIFETIME_MS + 500)]).toEqual(['k1']);
    for (let n = 0; n < 120; n++) rememberSettled(localStorage, 'u1', `n${n}`, 3_000 + n);
    const kept = [...settledKeys(localStorage, 'u1', 4_000)];
    expect(kept).toHaveLength(100);
    expect(kept.at(-1)).toBe('n119');
  });

  it('replaces an unreadable entry and drops entries of the wrong shape', () => {
    localStorage.setItem('tidewater:settled-sends:u1', JSON.stringify([{ key: 7, at: 1 }, null, 'k', { key: 'good', at: 1_000 }]));
    expect([...settledKeys(localStorage, 'u1', 2_000)]).toEqual(['good']);
    localStorage.setItem('tidewater:settled-sends:u1', '{oops');
    rememberSettled(localStorage, 'u1', 'k2', 2_000);
    expect([...settledKeys(localStorage, 'u1', 2_000)]).toEqual(['k2']);
  });
});
