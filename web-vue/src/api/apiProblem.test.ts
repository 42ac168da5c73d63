// @vitest-environment node
import { describe, expect, it } from 'vitest';
import { isServiceOutage, toApiProblem, type ApiProblem } from './apiProblem.ts';
import { bareResponse, problemResponse } from './fakeRequestEnvironment.ts';
import { ConnectionFailed, RequestStopped, RequestTimedOut } from './requestErrors.ts';

/** Reads the body the way openapi-fetch does (text, then JSON when it parses). */
async function problemOf(response: Response): Promise<ApiProblem> {
  const text = await response.clone().text();
  let body: unknown = text;
  try {
    body = JSON.parse(text);
  } catch {
    // not JSON: the text stays
  }
  return toApiProblem(response, text === '' ? undefined : body);
}

describe('toApiProblem', () => {
  const answers: Array<[string, { given: () => Response; want: Partial<ApiProblem> }]> = [
    ['the API 503 is SERVICE_UNAVAILABLE', { given: () => problemResponse(503, { errorCode: 'SERVICE_UNAVAILABLE', retryAfterSeconds: 10 }), want: { code: 'SERVICE_UNAVAILABLE', status: 503, retryAfterSeconds: 10 } }],
    ['a JSON 503 naming another code is still SERVICE_UNAVAILABLE', { given: () => problemResponse(503, { errorCode: 'INTERNAL', detail: 'back shortly' }), want: { code: 'SERVICE_UNAVAILABLE', status: 503 } }],
    ['applied: false is read', { given: () => problemResponse(503, { errorCode: 'SERVICE_UNAVAILABLE', retryAfterSeconds: 10, applied: false }), want: { applied: false } }],
    ['a non-JSON 503 is HTTP_503 with Retry-After', { given: () => bareResponse(503, 'Service Unavailable', { 'Retry-After': '4' }), want: { code: 'HTTP_503', status: 503, retryAfterSeconds: 4 } }],
    ['an empty 503 is HTTP_503', { given: () => bareResponse(503, ''), want: { code: 'HTTP_503', status: 503 } }],
    ['an empty 504 is HTTP_504', { given: () => bareResponse(504, ''), want: { code: 'HTTP_504', status: 504 } }],
    ['a proxy 502 page is HTTP_502', { given: () => bareResponse(502, '<html/>'), want: { code: 'HTTP_502', status: 502 } }],
    ['409 IDEMPOTENCY_RESULT_UNKNOWN with applied: true', { given: () => problemResponse(409, { errorCode: 'IDEMPOTENCY_RESULT_UNKNOWN', applied: true }), want: { code: 'IDEMPOTENCY_RESULT_UNKNOWN', applied: true } }],
    ['a 409 with no code is HTTP_409', { given: () => bareResponse(409, ''), want: { code: 'HTTP_409', status: 409 } }],
    ['a JSON body without errorCode keeps HTTP_<status>', { given: () => new Response('{"message":"nope"}', { status: 409, headers: { 'Content-Type': 'application/json' } }), want: { code: 'HTTP_409' } }],
    ['422 IDEMPOTENCY_KEY_REUSED', { given: () => problemResponse(422, { errorCode: 'IDEMPOTENCY_KEY_REUSED' }), want: { code: 'IDEMPOTENCY_KEY_REUSED', status: 422 } }],
    ['the trace id is kept', { given: () => problemResponse(500, { errorCode: 'INTERNAL' }), want: { code: 'INTERNAL', traceId: 'trace-1' } }],
  ];
  it.each(answers)('%s', async (_name, { given, want }) => {
    expect(await problemOf(given())).toMatchObject(want);
  });

  it('the BFF 503 (no applied) leaves applied unknown', async () => {
    const problem = await problemOf(problemResponse(503, { errorCode: 'SERVICE_UNAVAILABLE', retryAfterSeconds: 5 }));
    expect(problem.code).toBe('SERVICE_UNAVAILABLE');
    expect('applied' in problem).toBe(false);
  });

  const thrown: Array<[string, { given: unknown; want: ApiProblem }]> = [
    ['a failed fetch is CONNECTION_FAILED', { given: new TypeError('Failed to fetch'), want: { code: 'CONNECTION_FAILED', status: null } }],
    ['ConnectionFailed is CONNECTION_FAILED', { given: new ConnectionFailed(new TypeError('x')), want: { code: 'CONNECTION_FAILED', status: null } }],
    ['the 65 s abort is TIMED_OUT', { given: new RequestTimedOut(65_000), want: { code: 'TIMED_OUT', status: null } }],
    ['a stop is STOPPED', { given: new RequestStopped(), want: { code: 'STOPPED', status: null } }],
    ['a success that could not be read', { given: new SyntaxError('Unexpected token'), want: { code: 'UNREADABLE_RESPONSE', status: null } }],
  ];
  it.each(thrown)('%s', (_name, { given, want }) => {
    expect(toApiProblem(given)).toEqual(want);
  });
});

describe('isServiceOutage', () => {
  const cases: Array<[string, { given: ApiProblem; want: boolean }]> = [
    ['SERVICE_UNAVAILABLE', { given: { code: 'SERVICE_UNAVAILABLE', status: 503 }, want: true }],
    ['a proxy HTTP_503', { given: { code: 'HTTP_503', status: 503 }, want: true }],
    ['the 65 s abort', { given: { code: 'TIMED_OUT', status: null }, want: true }],
    ['a failed connection is not (it has its own branch)', { given: { code: 'CONNECTION_FAILED', status: null }, want: false }],
    ['a 502', { given: { code: 'HTTP_502', status: 502 }, want: false }],
    ['a 500', { given: { code: 'INTERNAL', status: 500 }, want: false }],
    ['a stop', { given: { code: 'STOPPED', status: null }, want: false }],
  ];
  it.each(cases)('%s', (_name, { given, want }) => {
    expect(isServiceOutage(given)).toBe(want);
  });
});
