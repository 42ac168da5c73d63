/** Writing a problem+json answer, the same from the API and the BFF. */
import type { ProblemBody } from '../errors.ts';

/** The parts of Express's Response a problem is written with. */
export interface ProblemResponse {
  setHeader(name: string, value: string): unknown;
  status(code: number): { type(type: string): { send(body: string): unknown } };
}

/** Writes a problem; a 503 or 429 also names its wait in Retry-After, and a 503 is never cached. */
export function writeProblem(res: ProblemResponse, body: ProblemBody): void {
  if (body.retryAfterSeconds !== undefined) res.setHeader('Retry-After', String(body.retryAfterSeconds));
  if (body.status === 503) res.setHeader('Cache-Control', 'no-store');
  res.status(body.status).type('application/problem+json').send(JSON.stringify(body));
}
