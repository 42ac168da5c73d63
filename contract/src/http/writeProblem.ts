/** Writing a problem+json answer, the same from the API and the BFF. */
import type { ErrorCode, ProblemBody } from '../errors.ts';

/** The parts of Express's Response a problem is written with. */
export interface ProblemResponse {
  setHeader(name: string, value: string): unknown;
  status(code: number): { type(type: string): { send(body: string): unknown } };
}

/**
 * The challenge of a 401 (RFC 9110 §11.6.1: every 401 carries one). A step-up to redo is
 * RFC 9470's `insufficient_user_authentication`, so a client tells it from a token to
 * refresh by the header as well as by `errorCode` (adr/0049); a refresh token that no longer
 * works is RFC 6750's `invalid_token`; anything else names the scheme only.
 */
function authenticateChallenge(code: ErrorCode): string {
  switch (code) {
    case 'AUTHORIZATION_INVALID':
    case 'AUTHORIZATION_EXPIRED':
      return 'Bearer realm="tidewater", error="insufficient_user_authentication", error_description="check the PIN again (POST /api/step-up)"';
    case 'TOKEN_INVALID':
      return 'Bearer realm="tidewater", error="invalid_token", error_description="sign in again (POST /api/auth/token)"';
    default:
      return 'Bearer realm="tidewater"';
  }
}

/** Writes a problem; a 503 or 429 also names its wait in Retry-After, a 503 is never cached, a 401 names its challenge. */
export function writeProblem(res: ProblemResponse, body: ProblemBody): void {
  if (body.retryAfterSeconds !== undefined) res.setHeader('Retry-After', String(body.retryAfterSeconds));
  if (body.status === 503) res.setHeader('Cache-Control', 'no-store');
  if (body.status === 401) res.setHeader('WWW-Authenticate', authenticateChallenge(body.errorCode));
  res.status(body.status).type('application/problem+json').send(JSON.stringify(body));
}
