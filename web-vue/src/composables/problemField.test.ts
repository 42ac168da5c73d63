import { describe, expect, it } from 'vitest';
import type { ApiProblem } from '../api/apiProblem.ts';
import { problemField } from './problemField.ts';

const fields = { amountMinor: 'amount', iban: 'iban', toHandle: 'handle', description: 'description' };

describe('problemField', () => {
  it.each<[string, { given: ApiProblem; want: string | null }]>([
    ['a pointer names its field', { given: { code: 'VALIDATION_FAILED', status: 400, pointers: ['#/description'] }, want: 'description' }],
    ['a pointer without its hash', { given: { code: 'VALIDATION_FAILED', status: 400, pointers: ['/amountMinor'] }, want: 'amount' }],
    ['the first pointer the form shows wins', { given: { code: 'VALIDATION_FAILED', status: 400, pointers: ['#/authorizationId', '#/iban'] }, want: 'iban' }],
    ['a refused amount', { given: { code: 'INSUFFICIENT_FUNDS', status: 422 }, want: 'amount' }],
    ['a bad IBAN', { given: { code: 'INVALID_IBAN', status: 422 }, want: 'iban' }],
    ['an unknown handle', { given: { code: 'PAYEE_NOT_FOUND', status: 404 }, want: 'handle' }],
    ['a field this form does not show', { given: { code: 'SAME_ACCOUNT', status: 422 }, want: null }],
    ['an outage is the page\'s', { given: { code: 'SERVICE_UNAVAILABLE', status: 503 }, want: null }],
  ])('%s', (_name, { given, want }) => {
    expect(problemField(given, fields)).toBe(want);
  });
});
