import { describe, expect, it } from 'vitest';
import { keyStatusOf } from './idempotencyKeyHandlers.ts';

// As a direct statement reads them: timestamptz as an ISO string, jsonb as text.
const claimedAt = '2026-12-05T09:00:00+00:00';
const base = { key: 'key-12345678', operationId: 'deposit', claimedAt, responseStatus: null, responseBody: null, landedAt: null };

describe('keyStatusOf: a record as the wire states it', () => {
  it.each([
    ['a claim being processed', { given: { ...base, status: 'Processing' }, want: { state: 'inFlight', answer: null } }],
    ['a claim that landed without its answer', { given: { ...base, status: 'Processing', landedAt: claimedAt }, want: { state: 'landed', answer: null } }],
    [
      'an executed send with its answer',
      { given: { ...base, status: 'Executed', landedAt: claimedAt, responseStatus: 201, responseBody: '{"id": "tx"}' }, want: { state: 'landed', answer: { status: 201, body: { id: 'tx' } } } },
    ],
    [
      'a stored refusal',
      { given: { ...base, status: 'Executed', responseStatus: 422, responseBody: '{"errorCode": "INSUFFICIENT_FUNDS"}' }, want: { state: 'refused', answer: { status: 422, body: { errorCode: 'INSUFFICIENT_FUNDS' } } } },
    ],
  ])('%s', (_name, { given, want }) => {
    expect(keyStatusOf(given)).toEqual({ key: 'key-12345678', operationId: 'deposit', claimedAt: '2026-12-05T09:00:00.000Z', ...want });
  });
});
