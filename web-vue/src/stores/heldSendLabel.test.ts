import { describe, expect, it } from 'vitest';
import { sendAgainQuestion } from './heldSendLabel.ts';

const at = new Date(2026, 11, 6, 14, 3).getTime();
const names: Record<string, string> = { a1: 'Everyday', a2: 'Savings' };

describe('sendAgainQuestion', () => {
  it.each<[string, { operation: 'deposit' | 'withdraw' | 'transfer'; accountId: string; payload: unknown; now: number; want: string }]>([
    ['a deposit', { operation: 'deposit', accountId: 'a1', payload: { amountMinor: 5555 }, now: at, want: 'You sent €55.55 to Everyday at 14:03 — send it again?' }],
    ['a withdrawal', { operation: 'withdraw', accountId: 'a1', payload: { amountMinor: 4000 }, now: at, want: 'You withdrew €40.00 from Everyday at 14:03 — withdraw it again?' }],
    ['a transfer by handle', { operation: 'transfer', accountId: 'a1', payload: { body: { fromAccountId: 'a1', toHandle: 'grace_h', amountMinor: 500 } }, now: at, want: 'You sent €5.00 to @grace_h at 14:03 — send it again?' }],
    ['between own accounts', { operation: 'transfer', accountId: 'a1', payload: { body: { fromAccountId: 'a1', toAccountId: 'a2', amountMinor: 500 } }, now: at, want: 'You sent €5.00 to Savings at 14:03 — send it again?' }],
    ['on another day', { operation: 'deposit', accountId: 'a1', payload: { amountMinor: 5555 }, now: at + 24 * 60 * 60 * 1000, want: 'You sent €55.55 to Everyday on 6 Dec at 14:03 — send it again?' }],
  ])('%s', (_name, { now, want, ...landed }) => {
    expect(sendAgainQuestion({ ...landed, landedAt: at }, (id) => names[id], now)).toBe(want);
  });
});
