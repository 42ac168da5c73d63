/**
 * Which form field a refusal names, so it is shown there and focus moves to it (adr/0050):
 * the field a 400's `errors[].pointer` names (`#/amountMinor` → `amountMinor`), else the
 * field a code is about (INSUFFICIENT_FUNDS → the amount). Null: the refusal is the page's.
 */
import type { ApiProblem, ProblemCode } from '../api/apiProblem.ts';

/** The body fields a form shows, by the name the page gives each. */
export type FieldOfBody = Record<string, string>;

/** The body field each code is about. */
const fieldOfCode: Partial<Record<ProblemCode, string>> = {
  INSUFFICIENT_FUNDS: 'amountMinor',
  DAILY_LIMIT_EXCEEDED: 'amountMinor',
  INVALID_IBAN: 'iban',
  PAYEE_NOT_FOUND: 'toHandle',
  PAYEE_HAS_NO_OPEN_ACCOUNT: 'toHandle',
  SAME_ACCOUNT: 'toAccountId',
};

/** The page's field for `problem`, given which page field shows each body field (`{ amountMinor: 'amount' }`), or null. */
export function problemField(problem: ApiProblem, fieldOfBody: FieldOfBody): string | null {
  for (const pointer of problem.pointers ?? []) {
    const field = fieldOfBody[pointer.replace(/^#?\//, '').split('/')[0] ?? ''];
    if (field) return field;
  }
  const bodyField = fieldOfCode[problem.code];
  return bodyField ? (fieldOfBody[bodyField] ?? null) : null;
}
