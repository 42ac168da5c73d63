/**
 * The bank's calendar: the days and months of the movement filters and the statements
 * begin at midnight in one time zone, the bank's, whatever the client's (adr/0071). The
 * database turns a calendar day into an instant (`make_timestamptz`), so daylight saving
 * is PostgreSQL's tz database's, never arithmetic of ours.
 */

/** The bank's name, as a statement prints it. */
export const bankName = 'Tidewater';

/** The bank's time zone (IANA): a euro bank's statements follow Central European time, CET/CEST. */
export const bankTimeZone = 'Europe/Amsterdam';

/** A calendar month, as `YYYY-MM` names it. */
export interface CalendarMonth {
  year: number;
  month: number;
}

/** The month `YYYY-MM` names (the spec's pattern has checked its shape). */
export function parseMonth(text: string): CalendarMonth {
  const [year, month] = text.split('-').map(Number) as [number, number];
  return { year, month };
}

/** The month after `month`. */
export function nextMonth({ year, month }: CalendarMonth): CalendarMonth {
  return month === 12 ? { year: year + 1, month: 1 } : { year, month: month + 1 };
}

/** The month it is now in the bank's time zone. */
export function currentMonth(now: Date = new Date()): CalendarMonth {
  const parts = new Intl.DateTimeFormat('en-CA', { timeZone: bankTimeZone, year: 'numeric', month: 'numeric' }).formatToParts(now);
  const part = (type: string) => Number(parts.find((p) => p.type === type)?.value);
  return { year: part('year'), month: part('month') };
}

/** Whether `month` begins after the month it is now (a statement of the future). */
export function isLaterMonth(month: CalendarMonth, than: CalendarMonth): boolean {
  return month.year * 12 + month.month > than.year * 12 + than.month;
}

/** An instant as the bank's local time with its offset: `2026-11-03T09:15:30.000+01:00`. */
export function bankLocalTime(at: Date): string {
  const parts = new Intl.DateTimeFormat('en-CA', {
    timeZone: bankTimeZone,
    hourCycle: 'h23',
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
    hour: '2-digit',
    minute: '2-digit',
    second: '2-digit',
    fractionalSecondDigits: 3,
    timeZoneName: 'longOffset',
  }).formatToParts(at);
  const part = (type: string) => parts.find((p) => p.type === type)?.value ?? '';
  const offset = part('timeZoneName').replace('GMT', '') || '+00:00';
  return `${part('year')}-${part('month')}-${part('day')}T${part('hour')}:${part('minute')}:${part('second')}.${part('fractionalSecond')}${offset}`;
}
