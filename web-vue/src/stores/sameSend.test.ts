import { describe, expect, it } from 'vitest';
import { isSameSend, type SendIdentity } from './sameSend.ts';

const deposit = (accountId: string, amountMinor: number, description?: string): SendIdentity => ({ operation: 'deposit', accountId, payload: { amountMinor, description } });
const transfer = (body: Record<string, unknown>): SendIdentity => ({ operation: 'transfer', accountId: 'a1', payload: { kind: 'internal', body: { fromAccountId: 'a1', amountMinor: 500, ...body } } });

describe('isSameSend', () => {
  it.each<[string, { a: SendIdentity; b: SendIdentity; want: boolean }]>([
    ['the same deposit, another note', { a: deposit('a1', 5555, 'rent'), b: deposit('a1', 5555), want: true }],
    ['another amount', { a: deposit('a1', 5555), b: deposit('a1', 5550), want: false }],
    ['another account', { a: deposit('a1', 5555), b: deposit('a2', 5555), want: false }],
    ['a withdrawal of the same amount', { a: deposit('a1', 5555), b: { operation: 'withdraw', accountId: 'a1', payload: { amountMinor: 5555 } }, want: false }],
    ['the same handle, typed with @ and capitals', { a: transfer({ toHandle: 'grace_h' }), b: transfer({ toHandle: '@Grace_H' }), want: true }],
    ['another handle', { a: transfer({ toHandle: 'grace_h' }), b: transfer({ toHandle: 'grace' }), want: false }],
    ['the same IBAN, grouped and lowercase', { a: transfer({ iban: 'DE89370400440532013000' }), b: transfer({ iban: 'de89 3704 0044 0532 0130 00' }), want: true }],
    ['own accounts: another destination', { a: transfer({ toAccountId: 'a2' }), b: transfer({ toAccountId: 'a3' }), want: false }],
  ])('%s', (_name, { a, b, want }) => {
    expect(isSameSend(a, b)).toBe(want);
  });
});
