/**
 * The error a handler throws to answer a problem from the catalog. Anything else that
 * escapes a handler is classified by `problems.ts` (an outage → 503, the rest → 500).
 */
import type { ProblemExtras } from '@tidewater/contract/errors';
import { errorCatalog, type ErrorCode } from './errorCatalog.ts';

const brand = Symbol.for('tidewater.ApiProblem');

/** Extra members a problem may carry (RFC 9457 extensions of our Problem schema). */
export type { ProblemExtras };

/** A catalogued problem: `throw new ApiProblem('ACCOUNT_NOT_FOUND')`. */
export class ApiProblem extends Error {
  readonly [brand] = true;
  readonly status: number;
  readonly code: ErrorCode;
  readonly detail: string | undefined;
  readonly extras: ProblemExtras;

  constructor(code: ErrorCode, detail?: string, extras: ProblemExtras = {}) {
    super(detail ?? errorCatalog[code].title);
    this.code = code;
    this.detail = detail;
    this.extras = extras;
    this.name = 'ApiProblem';
    this.status = errorCatalog[code].status;
  }
}

/** True for an ApiProblem, even across module copies. */
export function isApiProblem(error: unknown): error is ApiProblem {
  return typeof error === 'object' && error !== null && brand in error;
}
