/**
 * The search and filters of listTransactions (`q`, `amountMinor`, `direction`, `from`,
 * `to`), checked once and turned into the values the statement's predicates take: each is
 * null when not given, so the predicate `(value IS NULL OR …)` lets every movement through.
 * Days are the bank's calendar days (bankCalendar.ts).
 */
import type { OperationInput } from '../../contract/operations.ts';
import { ApiProblem } from '../../errors/apiProblem.ts';

/** The filters as the statement's placeholders take them. */
export interface MovementFilters {
  /** An ILIKE pattern (`%text%`, its own `%`, `_` and `\` escaped), or null. */
  textPattern: string | null;
  /** The amount in minor units, either sign, as decimal text, or null. */
  amountMinor: string | null;
  direction: 'in' | 'out' | null;
  /** The first day (`YYYY-MM-DD`) included, or null. */
  fromDay: string | null;
  /** The last day included, or null. */
  toDay: string | null;
}

/** The filters of a listTransactions query; 400 VALIDATION_FAILED for a `from` after `to`. */
export function movementFiltersOf(query: OperationInput<'listTransactions'>['query']): MovementFilters {
  const text = query.q?.trim();
  const fromDay = calendarDay('from', query.from);
  const toDay = calendarDay('to', query.to);
  // ISO days compare as text.
  if (fromDay && toDay && fromDay > toDay) {
    throw new ApiProblem('VALIDATION_FAILED', `The range ends (${toDay}) before it begins (${fromDay}).`, {
      errors: [{ parameter: 'from', detail: 'must be on or before `to`' }],
    });
  }
  return {
    textPattern: text ? `%${text.replace(/[\\%_]/g, (character) => `\\${character}`)}%` : null,
    amountMinor: query.amountMinor === undefined ? null : String(query.amountMinor),
    direction: query.direction ?? null,
    fromDay,
    toDay,
  };
}

/**
 * A `from` or `to` that names a real day (the schema's `date` format checks only the shape:
 * 2026-02-30 and year 0 pass it, and PostgreSQL refuses both), or null.
 */
function calendarDay(parameter: 'from' | 'to', text: string | undefined): string | null {
  if (text === undefined) return null;
  const day = new Date(`${text}T00:00:00Z`);
  if (text.startsWith('0000') || Number.isNaN(day.getTime()) || day.toISOString().slice(0, 10) !== text) {
    throw new ApiProblem('VALIDATION_FAILED', `${text} is not a day of the calendar.`, {
      errors: [{ parameter, detail: 'must be a real day, YYYY-MM-DD' }],
    });
  }
  return text;
}
