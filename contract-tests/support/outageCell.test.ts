/**
 * The outage matrix's judge against hand-made outcomes: what keeps the contract passes,
 * and each way of breaking it (a 500, a late answer, a cached 503, an answer to a client
 * that hung up, a hang-up logged as anything but 499) is named.
 */
import { describe, expect, it } from 'vitest';
import { loadOpenApiDocument } from '@tidewater/test-support/openApiDocument';
import { expectationFor, judgeOutage, judgeSuccess, loggedFor, type Logged } from './outageCell.ts';
import { createResponseValidator } from '@tidewater/test-support/responseValidator';
import type { Answer, NoAnswer } from './sendRequest.ts';
import { operationById, specOperations } from './specOperations.ts';

const document = loadOpenApiDocument();
const operations = specOperations(document);
const validator = createResponseValidator(document);
const op = (id: string) => operationById(operations, id);

const problem = (status: number, errorCode: string, extra: Record<string, unknown> = {}) => ({
  type: '/problems/x',
  title: 't',
  status,
  errorCode,
  traceId: 'ct-trace-0001',
  ...extra,
});
function answer(status: number, body: unknown, headers: Record<string, string> = {}, ms = 2_000): Answer {
  const bodyText = body === undefined ? '' : JSON.stringify(body);
  const contentType = body === undefined ? '' : status >= 400 ? 'application/problem+json' : 'application/json';
  return { kind: 'answer', status, headers: new Headers({ ...(contentType ? { 'content-type': contentType } : {}), ...headers }), contentType, bodyText, body, ms };
}
const outage = (ms = 2_000, headers: Record<string, string> = { 'retry-after': '10', 'cache-control': 'no-store' }, retryAfterSeconds = 10) =>
  answer(503, problem(503, 'SERVICE_UNAVAILABLE', { retryAfterSeconds }), headers, ms);
const hungUp: NoAnswer = { kind: 'no-answer', reason: 'hung-up', detail: 'AbortError', ms: 300 };
const timedOut: NoAnswer = { kind: 'no-answer', reason: 'timed-out', detail: 'AbortError', ms: 5_000 };
const BOUND = 4_000;

type Case = [name: string, { operationId: string; hangUp?: boolean; outcome: Answer | NoAnswer; logged?: Logged; loggedStatuses?: Logged[]; want: RegExp | 'kept' }];

const cases: Case[] = [
  ['a 503 with its headers, in time', { operationId: 'deposit', outcome: outage(), want: 'kept' }],
  ['a 500', { operationId: 'deposit', outcome: answer(500, problem(500, 'INTERNAL')), want: /answered 500 INTERNAL: an outage is never a 500/ }],
  ['a 503 past the bound', { operationId: 'getMe', outcome: outage(4_200), want: /after 4200 ms, past the bound of 4000 ms/ }],
  ['no answer at all', { operationId: 'getMe', outcome: timedOut, want: /no answer within 5000 ms/ }],
  ['a 503 that may be cached', { operationId: 'getMe', outcome: outage(2_000, { 'retry-after': '10', 'cache-control': 'max-age=60' }), want: /without Cache-Control: no-store/ }],
  ['a 503 whose two waits disagree', { operationId: 'getMe', outcome: outage(2_000, { 'retry-after': '10', 'cache-control': 'no-store' }, 1), want: /Retry-After 10 differs from retryAfterSeconds 1/ }],
  ['a 200 from an operation that needs the database', { operationId: 'getMe', outcome: answer(200, { id: 'x' }), want: /answered 200 , expected 503/ }],
  ['a 501 from an operation not built yet', { operationId: 'deposit', outcome: answer(501, problem(501, 'NOT_IMPLEMENTED')), want: /answered 501 NOT_IMPLEMENTED, expected 503/ }],
  ['liveness answering 200', { operationId: 'getHealth', outcome: answer(200, { status: 'ok' }, {}, 20), want: 'kept' }],
  ['an exempt operation answering 204', { operationId: 'logout', outcome: answer(204, undefined, {}, 50), want: 'kept' }],
  ['an exempt operation answering 500', { operationId: 'logout', outcome: answer(500, problem(500, 'INTERNAL')), want: /never a 500/ }],
  ['a hang-up logged 499 in time', { operationId: 'deposit', hangUp: true, outcome: hungUp, logged: { status: 499, ms: 2_100 }, loggedStatuses: [{ status: 499, ms: 2_100 }], want: 'kept' }],
  ['a hang-up logged 499 too late', { operationId: 'deposit', hangUp: true, outcome: hungUp, loggedStatuses: [{ status: 499, ms: 4_300 }], want: /499 logged after 4300 ms, past the bound/ }],
  ['a hang-up logged as a 200', { operationId: 'deposit', hangUp: true, outcome: hungUp, loggedStatuses: [{ status: 200, ms: 400 }], want: /no 499 logged/ }],
  ['a hang-up logged as a 500', { operationId: 'deposit', hangUp: true, outcome: hungUp, logged: { status: 499, ms: 900 }, loggedStatuses: [{ status: 499, ms: 900 }, { status: 500, ms: 900 }], want: /the API logged a 500/ }],
  ['an answer before the client hung up', { operationId: 'deposit', hangUp: true, outcome: answer(501, problem(501, 'NOT_IMPLEMENTED'), {}, 20), want: /answered 501 NOT_IMPLEMENTED in 20 ms, before the client hung up/ }],
  ['liveness answering before the hang-up', { operationId: 'getHealth', hangUp: true, outcome: answer(200, { status: 'ok' }, {}, 20), want: 'kept' }],
];

describe('judgeOutage', () => {
  it.each(cases)('%s', (_name, { operationId, hangUp = false, outcome, logged, loggedStatuses = [], want }) => {
    const failures = judgeOutage(op(operationId), expectationFor(op(operationId), hangUp), { outcome, logged, loggedStatuses }, validator, BOUND);
    if (want === 'kept') expect(failures).toEqual([]);
    else expect(failures.join('\n')).toMatch(want);
  });
});

describe('judgeSuccess', () => {
  it.each([
    ['a 2xx in time', 'getHealth', answer(200, { status: 'ok' }, {}, 30), 'kept'],
    ['its own declared 4xx', 'getMe', answer(401, problem(401, 'UNAUTHENTICATED'), { 'www-authenticate': 'Bearer realm="tidewater"' }, 30), 'kept'],
    ['still a 503', 'getMe', outage(30), /answered 503 SERVICE_UNAVAILABLE/],
    ['a 2xx too late', 'getHealth', answer(200, { status: 'ok' }, {}, 1_500), /after 1500 ms, past 1000 ms/],
  ] as const)('%s', (_name, operationId, outcome, want) => {
    const failures = judgeSuccess(op(operationId), outcome, validator, 1_000);
    if (want === 'kept') expect(failures).toEqual([]);
    else expect(failures.join('\n')).toMatch(want);
  });
});

describe('loggedFor', () => {
  it('finds a 499 as "status" or as res.statusCode, only for its trace id', () => {
    const lines = [
      JSON.stringify({ time: 1_000, traceId: 'ct-a', status: 499, msg: 'client closed the request' }),
      JSON.stringify({ time: 1_200, req: { id: 'ct-a' }, res: { statusCode: 499 } }),
      JSON.stringify({ time: 1_300, req: { id: 'ct-b' }, res: { statusCode: 500 } }),
      'not json ct-a',
    ];
    expect(loggedFor(lines, 'ct-a', 500)).toEqual([
      { status: 499, ms: 500 },
      { status: 499, ms: 700 },
    ]);
  });
});
