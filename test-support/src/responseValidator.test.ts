/**
 * The response validator against hand-made answers, good and bad: it must pass every
 * good one and name the fault in every bad one (a validator that passes everything
 * would make the outage matrix worthless).
 */
import { describe, expect, it } from 'vitest';
import { loadOpenApiDocument } from './openApiDocument.ts';
import { createResponseValidator, type ResponseToCheck } from './responseValidator.ts';

const validator = createResponseValidator(loadOpenApiDocument());

const PROBLEM_JSON = 'application/problem+json; charset=utf-8';
const TRACE = '0af7651916cd43dd8448eb211c80319c';
const outageBody = {
  type: '/docs/problems/service-unavailable',
  title: 'The service is temporarily unavailable',
  status: 503,
  detail: 'Try again later.',
  errorCode: 'SERVICE_UNAVAILABLE',
  traceId: TRACE,
  retryAfterSeconds: 10,
};
const outageHeaders = { 'content-type': PROBLEM_JSON, 'retry-after': '10', 'cache-control': 'no-store' };
const outage = (changes: Partial<ResponseToCheck> & { body?: unknown } = {}): ResponseToCheck => ({
  status: 503,
  headers: outageHeaders,
  bodyText: JSON.stringify(changes.body ?? outageBody),
  ...changes,
});
const account = {
  id: '3f1c2a9e-6b7d-4c1e-9a3b-2f5e8d7c6b1a',
  name: 'Everyday',
  currency: 'EUR',
  balanceMinor: 0,
  status: 'open',
  isPrimary: true,
  openedAt: '2026-11-29T10:15:30Z',
  closedAt: null,
  idempotencyKey: null,
};
const json = (status: number, body: unknown): ResponseToCheck => ({
  status,
  headers: { 'content-type': 'application/json; charset=utf-8' },
  bodyText: JSON.stringify(body),
});

type Case = [name: string, { operationId: string; response: ResponseToCheck; want: RegExp | 'valid' }];

const cases: Case[] = [
  ['a 503 outage answer', { operationId: 'getMe', response: outage(), want: 'valid' }],
  ['a money send 503 with applied: false', { operationId: 'deposit', response: outage({ body: { ...outageBody, applied: false } }), want: 'valid' }],
  ['a 503 without Retry-After', { operationId: 'getMe', response: outage({ headers: { 'content-type': PROBLEM_JSON, 'cache-control': 'no-store' } }), want: /Retry-After is required/ }],
  ['a 503 without Cache-Control', { operationId: 'getMe', response: outage({ headers: { 'content-type': PROBLEM_JSON, 'retry-after': '10' } }), want: /Cache-Control is required/ }],
  ['a 503 whose Retry-After is not a number of seconds', { operationId: 'getMe', response: outage({ headers: { ...outageHeaders, 'retry-after': 'soon' } }), want: /header Retry-After must be integer/ }],
  ['a 503 without retryAfterSeconds', { operationId: 'getMe', response: outage({ body: { ...outageBody, retryAfterSeconds: undefined } }), want: /retryAfterSeconds/ }],
  ['a 503 naming another errorCode', { operationId: 'getMe', response: outage({ body: { ...outageBody, errorCode: 'INTERNAL' } }), want: /errorCode must be equal to one of the allowed values/ }],
  ['a 503 sent as plain JSON, not problem+json', { operationId: 'getMe', response: outage({ headers: { ...outageHeaders, 'content-type': 'application/json' } }), want: /content type "application\/json" is not declared/ }],
  ['a 503 with an empty body', { operationId: 'getMe', response: outage({ bodyText: '' }), want: /not JSON/ }],
  ['a 503 whose status member disagrees', { operationId: 'getMe', response: outage({ body: { ...outageBody, status: 500 } }), want: /status must be equal to one of the allowed values/ }],
  ['a 499 problem (never received; the body every error carries, for typed clients)', { operationId: 'deposit', response: { status: 499, headers: { 'content-type': PROBLEM_JSON }, bodyText: JSON.stringify({ ...outageBody, status: 499, errorCode: 'CLIENT_CLOSED_REQUEST', retryAfterSeconds: undefined }) }, want: 'valid' }],
  ['a 499 with an empty body', { operationId: 'deposit', response: { status: 499, headers: { 'content-type': PROBLEM_JSON }, bodyText: '' }, want: /not JSON/ }],
  ['a 204 with no body', { operationId: 'revokeToken', response: { status: 204, headers: {}, bodyText: '' }, want: 'valid' }],
  ['a 204 with a body', { operationId: 'revokeToken', response: { status: 204, headers: {}, bodyText: 'ok' }, want: /204 declares no body/ }],
  ['a status the operation does not declare', { operationId: 'getHealth', response: json(502, {}), want: /status 502 is not declared for getHealth/ }],
  ['a 200 liveness answer', { operationId: 'getHealth', response: json(200, { status: 'ok' }), want: 'valid' }],
  ['a 200 with a member the schema forbids', { operationId: 'getHealth', response: json(200, { status: 'ok', db: 'up' }), want: /must NOT have additional properties/ }],
  ['a 200 account', { operationId: 'getAccount', response: json(200, account), want: 'valid' }],
  ['an account whose id is not a uuid', { operationId: 'getAccount', response: json(200, { ...account, id: 'acc-1' }), want: /\/id must match format "uuid"/ }],
  ['an account whose balance is a float', { operationId: 'getAccount', response: json(200, { ...account, balanceMinor: 10.5 }), want: /balanceMinor must be integer/ }],
  ['an account with a negative balance', { operationId: 'getAccount', response: json(200, { ...account, balanceMinor: -1 }), want: /balanceMinor must be >= 0/ }],
  ['a 500 problem (declared; the matrix refuses it separately)', { operationId: 'getMe', response: { status: 500, headers: { 'content-type': PROBLEM_JSON }, bodyText: JSON.stringify({ ...outageBody, status: 500, errorCode: 'INTERNAL', retryAfterSeconds: undefined }) }, want: 'valid' }],
  ['an unknown operation', { operationId: 'doesNotExist', response: json(200, {}), want: /no operation "doesNotExist"/ }],
];

describe('responseValidator', () => {
  it.each(cases)('%s', (_name, { operationId, response, want }) => {
    const problems = validator.validate(operationId, response);
    if (want === 'valid') expect(problems).toEqual([]);
    else expect(problems.join('\n')).toMatch(want);
  });
});
