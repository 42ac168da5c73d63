/** The months the statements offer: the bank's (Europe/Amsterdam), newest first, across a year's turn. */
import { describe, expect, it } from 'vitest';
import { recentMonths } from './statements.ts';

describe('recentMonths', () => {
  it.each([
    ['mid-month', { given: '2026-11-15T12:00:00Z', want: ['2026-11', '2026-10', '2026-09'] }],
    ['across the year', { given: '2026-02-10T12:00:00Z', want: ['2026-02', '2026-01', '2025-12'] }],
    ["23:30 UTC on the last day is already the next month in Amsterdam", { given: '2026-11-30T23:30:00Z', want: ['2026-12', '2026-11', '2026-10'] }],
    ["22:30 UTC on 31 July is 00:30 on 1 August in Amsterdam (summer time)", { given: '2026-07-31T22:30:00Z', want: ['2026-08', '2026-07', '2026-06'] }],
  ])('%s', (_name, { given, want }) => {
    expect(recentMonths(new Date(given), 3)).toEqual(want);
  });
});
