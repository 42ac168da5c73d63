/**
 * The BFF's own problem answers (RFC 9457 application/problem+json, the API's Problem
 * shape: DESIGN.md "The contract"). The BFF answers only the few codes below itself;
 * everything else it passes through from the API as it came. Titles and types are the
 * API's catalog's (`problem.test.ts` keeps them equal), so a visitor cannot tell who wrote
 * a problem except by its detail.
 */
import type { Response } from 'express';
import type { components } from '@tidewater/spec/openapi';

/** Every code the spec knows. */
export type ErrorCode = components['schemas']['ErrorCode'];

/** The codes the BFF answers on its own, with the API catalog's status and title. */
export const bffProblems = {
  VALIDATION_FAILED: { status: 400, title: 'The request is not valid' },
  MALFORMED_JSON: { status: 400, title: 'The request body is not valid JSON' },
  UNAUTHENTICATED: { status: 401, title: 'Sign in to continue' },
  FORBIDDEN: { status: 403, title: 'Not allowed' },
  NOT_FOUND: { status: 404, title: 'Not found' },
  METHOD_NOT_ALLOWED: { status: 405, title: 'Method not allowed' },
  PAYLOAD_TOO_LARGE: { status: 413, title: 'The request body is too large' },
  UNSUPPORTED_MEDIA_TYPE: { status: 415, title: 'The request body must be JSON' },
  HEADERS_TOO_LARGE: { status: 431, title: 'The request headers are too large' },
  INTERNAL: { status: 500, title: 'Something went wrong on our side' },
  SERVICE_UNAVAILABLE: { status: 503, title: 'The service is temporarily unavailable' },
} as const satisfies Partial<Record<ErrorCode, { status: number; title: string }>>;

/** A code the BFF answers itself. */
export type BffErrorCode = keyof typeof bffProblems;

/** The wire shape (components.schemas.Problem). The BFF never sets `applied`: only the API knows. */
export interface ProblemBody {
  type: string;
  title: string;
  status: number;
  detail?: string;
  errorCode: BffErrorCode;
  traceId: string;
  retryAfterSeconds?: number;
}

/** The problem `type` URI of a code, as the API writes it. */
export function problemType(code: ErrorCode): string {
  return `https://tidewater.example/problems/${code.toLowerCase().replaceAll('_', '-')}`;
}

/** Builds a problem body. */
export function problemBody(
  code: BffErrorCode,
  traceId: string,
  detail?: string,
  retryAfterSeconds?: number,
): ProblemBody {
  const { status, title } = bffProblems[code];
  return {
    type: problemType(code),
    title,
    status,
    ...(detail ? { detail } : {}),
    errorCode: code,
    traceId,
    ...(retryAfterSeconds !== undefined ? { retryAfterSeconds } : {}),
  };
}

/**
 * Writes a problem: a 503 names its wait in Retry-After and is never cached; nothing is
 * written to a visitor who hung up (a 499 has no body).
 */
function sendProblem(res: Response, body: ProblemBody): void {
  if (res.headersSent || res.destroyed) return;
  if (body.retryAfterSeconds !== undefined) res.setHeader('Retry-After', String(body.retryAfterSeconds));
  if (body.status === 503) res.setHeader('Cache-Control', 'no-store');
  res.status(body.status).type('application/problem+json').send(JSON.stringify(body));
}

/** The traceId of this request (set by the request log). */
export function traceIdOf(res: Response): string {
  return String(res.getHeader('X-Trace-Id') ?? '');
}

/** Answers a problem with this request's traceId. */
export function answerProblem(
  res: Response,
  code: BffErrorCode,
  detail?: string,
  retryAfterSeconds?: number,
): void {
  sendProblem(res, problemBody(code, traceIdOf(res), detail, retryAfterSeconds));
}

/** Answers the BFF's own 503 (SERVICE_UNAVAILABLE, Retry-After, no-store, no `applied`). */
export function answerUnavailable(res: Response, detail: string, retryAfterSeconds: number): void {
  answerProblem(res, 'SERVICE_UNAVAILABLE', detail, retryAfterSeconds);
}
