/**
 * The problem builder: the RFC 9457 problem+json body of a catalogued code, the one
 * wire shape every error answer of the API has (`http/problems.ts` writes it).
 */
import type { ProblemExtras } from './apiProblem.ts';
import { errorCatalog, problemType, type ErrorCode } from './errorCatalog.ts';

/** The wire shape of a problem (components.schemas.Problem). */
export interface ProblemBody extends ProblemExtras {
  type: string;
  title: string;
  status: number;
  detail?: string;
  errorCode: ErrorCode;
  traceId: string;
}

/** Builds the problem body for a code. */
export function problemBody(code: ErrorCode, traceId: string, detail?: string, extras: ProblemExtras = {}): ProblemBody {
  const { status, title } = errorCatalog[code];
  return { type: problemType(code), title, status, ...(detail ? { detail } : {}), errorCode: code, traceId, ...extras };
}
