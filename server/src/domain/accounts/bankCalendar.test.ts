/** The bank's calendar: Amsterdam's months and local times, daylight saving included. */
import { describe, expect, it } from 'vitest';
import { bankLocalTime, currentMonth, isLaterMonth, nextMonth } from './bankCalendar.ts';

describe('the bank calendar', () => {
  it.each([
    ['winter, +01:00', { given: '2026-11-03T08:15:30.000Z', want: '2026-11-03T09:15:30.000+01:00' }],
    ['summer, +02:00, past midnight', { given: '2026-07-31T22:30:00.123Z', want: '2026-08-01T00:30:00.123+02:00' }],
  ])('writes a local time in %s', (_name, { given, want }) => {
    expect(bankLocalTime(new Date(given))).toBe(want);
  });

  it('knows the month from Amsterdam, not UTC', () => {
    expect(currentMonth(new Date('2026-12-31T23:30:00Z'))).toEqual({ year: 2027, month: 1 });
    expect(currentMonth(new Date('2026-12-31T22:30:00Z'))).toEqual({ year: 2026, month: 12 });
  });

  it('steps across a year and compares months', () => {
    expect(nextMonth({ year: 2026, month: 12 })).toEqual({ year: 2027, month: 1 });
    expect(isLaterMonth({ year: 2027, month: 1 }, { year: 2026, month: 12 })).toBe(true);
    expect(isLaterMonth({ year: 2026, month: 12 }, { year: 2026, month: 12 })).toBe(false);
  });
});
