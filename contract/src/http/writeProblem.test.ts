/** What writeProblem puts on the wire besides the body: the wait, no-store, and every 401's challenge. */
import { describe, expect, it } from 'vitest';
import { problemBody, type ErrorCode } from '../errors.ts';
import { writeProblem } from './writeProblem.ts';

/** Writes `code`'s problem into a recording response; answers its headers. */
function headersOf(code: ErrorCode, extras: { retryAfterSeconds?: number } = {}): Record<string, string> {
  const headers: Record<string, string> = {};
  writeProblem(
    {
      setHeader: (name, value) => (headers[name.toLowerCase()] = value),
      status: () => ({ type: (type) => ({ send: () => (headers['content-type'] = type) }) }),
    },
    problemBody(code, '0af7651916cd43dd8448eb211c80319c', undefined, extras),
  );
  return headers;
}

describe('writeProblem', () => {
  it.each([
    ['UNAUTHENTICATED', 'Bearer realm="tidewater"'],
    ['INVALID_CREDENTIALS', 'Bearer realm="tidewater"'],
    ['TOKEN_INVALID', 'Bearer realm="tidewater", error="invalid_token"'],
    ['AUTHORIZATION_INVALID', 'Bearer realm="tidewater", error="insufficient_user_authentication"'],
    ['AUTHORIZATION_EXPIRED', 'Bearer realm="tidewater", error="insufficient_user_authentication"'],
  ] as const)('gives a 401 %s the challenge %s', (code, challenge) => {
    expect(headersOf(code)['www-authenticate']).toMatch(new RegExp(`^${challenge.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}`));
  });

  it('gives every 401 of the catalog a challenge, and nothing else one', async () => {
    const { errorCatalog } = await import('../errors.ts');
    for (const [code, { status }] of Object.entries(errorCatalog)) {
      expect(headersOf(code as ErrorCode)['www-authenticate'] !== undefined, code).toBe(status === 401);
    }
  });

  it('names the wait of a problem that has one, and never lets a 503 be cached', () => {
    expect(headersOf('SERVICE_UNAVAILABLE', { retryAfterSeconds: 10 })).toMatchObject({ 'retry-after': '10', 'cache-control': 'no-store' });
    expect(headersOf('IDEMPOTENCY_IN_FLIGHT', { retryAfterSeconds: 1 })).toMatchObject({ 'retry-after': '1' });
  });
});
