import { describe, expect, it } from 'vitest';
import { forwardedTarget } from './apiProxy.ts';
import { hasRequestBody, headersTowardsApi, headersTowardsVisitor } from './forwardedHeaders.ts';

describe('headersTowardsApi', () => {
  it("sends only what the API reads, the trace (the BFF's own traceparent) and the bearer token; never cookies, the CSRF token or the visitor's trace headers as they came", () => {
    const headers = headersTowardsApi(
      {
        accept: 'application/json',
        'content-type': 'application/json',
        'content-length': '17',
        'idempotency-key': 'key-12345678',
        cookie: 'tw_session=s%3Aabc',
        'x-csrf-token': 'csrf',
        authorization: 'Bearer visitor-supplied',
        'x-trace-id': 'visitor-trace',
        traceparent: '00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01',
        tracestate: 'vendor=visitor',
        'x-forwarded-for': '10.0.0.1',
        host: 'bank.example',
      },
      { traceId: '0af7651916cd43dd8448eb211c80319c', traceparent: '00-0af7651916cd43dd8448eb211c80319c-00f067aa0ba902b7-01' },
      'access-token',
    );
    expect(headers).toEqual({
      accept: 'application/json',
      'content-type': 'application/json',
      'content-length': '17',
      'idempotency-key': 'key-12345678',
      'x-trace-id': '0af7651916cd43dd8448eb211c80319c',
      traceparent: '00-0af7651916cd43dd8448eb211c80319c-00f067aa0ba902b7-01',
      authorization: 'Bearer access-token',
    });
  });
});

describe('headersTowardsVisitor', () => {
  it("keeps the API's headers but hop-by-hop ones, cookies and its security headers, and is never cached", () => {
    const kept = headersTowardsVisitor({
      'content-type': 'application/problem+json',
      'retry-after': '10',
      'cache-control': 'max-age=60',
      'x-trace-id': 't',
      connection: 'keep-alive',
      'keep-alive': 'timeout=5',
      'transfer-encoding': 'chunked',
      'set-cookie': ['a=b'],
      'content-length': '120',
      'x-frame-options': 'SAMEORIGIN',
      'content-security-policy': "default-src 'none'",
      'strict-transport-security': 'max-age=31536000',
      'cross-origin-opener-policy': 'same-origin',
      'x-content-type-options': 'nosniff',
    });
    expect(Object.fromEntries(kept)).toEqual({
      'content-type': 'application/problem+json',
      'retry-after': '10',
      'cache-control': 'no-store',
      'x-trace-id': 't',
      'content-length': '120',
    });
  });
});

describe('hasRequestBody', () => {
  it.each([
    ['GET', {}, false],
    ['HEAD', { 'content-length': '3' }, false],
    ['POST', {}, false],
    ['POST', { 'content-length': '0' }, false],
    ['POST', { 'content-length': '12' }, true],
    ['PATCH', { 'transfer-encoding': 'chunked' }, true],
  ])('%s %j → %s', (method, headers, expected) => {
    expect(hasRequestBody(method, headers)).toBe(expected);
  });
});

describe('forwardedTarget', () => {
  it.each([
    ['/api/accounts', '/api/accounts'],
    ['/api/accounts?limit=5', '/api/accounts?limit=5'],
    ['/api/accounts/3f1c/../3f1c', '/api/accounts/3f1c'],
    ['/api/idempotency-keys/7c9e6679-7425-40de-944b-e07fc1f90ae7', '/api/idempotency-keys/7c9e6679-7425-40de-944b-e07fc1f90ae7'],
    ['/api/idempotency-keys?since=2026-12-05T09%3A00%3A00Z', '/api/idempotency-keys?since=2026-12-05T09%3A00%3A00Z'],
    ['/api/auth/token', undefined],
    ['/api/auth', undefined],
    ['/API/Auth/refresh', undefined],
    ['/api//auth/revoke', undefined],
    ['/api/%61uth/token', undefined],
    ['/api/accounts/../auth/token', undefined],
    ['/api/accounts/%2e%2e/auth/token', undefined],
    ['/api/%E0%A4%A', undefined],
    ['/api/authors', '/api/authors'],
  ])('%s → %s', (url, expected) => {
    expect(forwardedTarget(url)).toBe(expected);
  });
});
