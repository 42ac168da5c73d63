/**
 * The API's token operations the BFF makes on a session's behalf: refresh (the renewal,
 * 30 s: the API's refresh has no deadline, so a slow database still finishes it) and
 * revoke (sign-out, 5 s). Results are values.
 */
import type { components } from '@tidewater/spec/openapi';
import { issuedTokens } from '../session/sessionData.ts';
import type { ApiClient } from './apiClient.ts';
import type { RenewFunction } from './renewals.ts';
import { describeNetworkError } from './upstreamFailure.ts';

type TokenPair = components['schemas']['TokenPair'];

/** True when `value` has the TokenPair fields the BFF relies on. */
export function isTokenPair(value: unknown): value is TokenPair {
  const pair = value as Partial<TokenPair> | undefined;
  return (
    typeof pair?.accessToken === 'string' &&
    typeof pair.refreshToken === 'string' &&
    typeof pair.expiresIn === 'number' &&
    pair.expiresIn > 0
  );
}

/** One token call: POST `{ refreshToken }` to `path` within `timeoutMs`; no answer is `unavailable`. */
async function postRefreshToken(
  api: ApiClient,
  path: '/api/auth/refresh' | '/api/auth/revoke',
  refreshToken: string,
  traceId: string,
  timeoutMs: number,
) {
  const result = await api.call({ traceId, timeoutMs }, (client, init) =>
    client.POST(path, { ...init, body: { refreshToken } }),
  );
  if (result.kind !== 'noAnswer') return result;
  const label = path.slice('/api/auth/'.length);
  return {
    kind: 'unavailable' as const,
    detail: `${label}: ${result.failure} (${describeNetworkError(result.error)})`,
  };
}

/** The renewal: POST /api/auth/refresh within `timeoutMs`, independent of any visitor. */
export function refreshWithApi(api: ApiClient, timeoutMs: number): RenewFunction {
  return async (refreshToken, traceId) => {
    const askedAt = Date.now();
    const result = await postRefreshToken(api, '/api/auth/refresh', refreshToken, traceId, timeoutMs);
    if (result.kind === 'unavailable') return result;
    if (result.status === 200) {
      const pair = result.data;
      if (isTokenPair(pair)) return { kind: 'renewed', tokens: issuedTokens(pair, askedAt) };
      return { kind: 'unavailable', detail: 'refresh: the API answered 200 without a token pair' };
    }
    // 401: unknown, spent, revoked or expired. 400: a token the API cannot even read.
    if (result.status === 401 || result.status === 400) return { kind: 'refused' };
    return { kind: 'unavailable', detail: `refresh: the API answered ${result.status}` };
  };
}

/** How a revoke ended: `revoked` also covers a token the API says is not valid anyway. */
export type RevokeOutcome = { kind: 'revoked' } | { kind: 'unavailable'; detail: string };

/** POST /api/auth/revoke within `timeoutMs`. */
export async function revokeWithApi(
  api: ApiClient,
  refreshToken: string,
  traceId: string,
  timeoutMs: number,
): Promise<RevokeOutcome> {
  const result = await postRefreshToken(api, '/api/auth/revoke', refreshToken, traceId, timeoutMs);
  if (result.kind === 'unavailable') return result;
  // 2xx: revoked. A 4xx other than 408/429 refuses the token itself: nothing is left to revoke.
  if (result.status < 300 || (result.status < 500 && result.status !== 408 && result.status !== 429)) {
    return { kind: 'revoked' };
  }
  return { kind: 'unavailable', detail: `revoke: the API answered ${result.status}` };
}
