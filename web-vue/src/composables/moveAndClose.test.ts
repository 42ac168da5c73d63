import { describe, expect, it } from 'vitest';
import type { Account } from '../stores/accounts.ts';
import { balanceDestination, moveBalanceRoute } from './moveAndClose.ts';

const account = (id: string, over: Partial<Account> = {}): Account =>
  ({ id, name: id, status: 'open', isPrimary: false, balanceMinor: 0, currency: 'EUR', createdAt: '2026-12-06T00:00:00Z', ...over }) as Account;

const everyday = account('everyday', { isPrimary: true, balanceMinor: 5000 });
const savings = account('savings', { balanceMinor: 1234 });
const holiday = account('holiday');

describe('balanceDestination: where an account\'s balance goes before it closes', () => {
  it.each<[string, { from: Account; open: Account[]; want: string | undefined }]>([
    ['money in a second account: to the primary one', { from: savings, open: [holiday, everyday, savings], want: 'everyday' }],
    ['no primary among the others: the first other open one', { from: savings, open: [savings, holiday], want: 'holiday' }],
    ['empty: nothing to move, it closes as it is', { from: holiday, open: [everyday, holiday], want: undefined }],
    ['the primary account: it may not close, so no offer', { from: everyday, open: [everyday, savings], want: undefined }],
    ['the only account: nowhere to move it', { from: savings, open: [savings], want: undefined }],
    ['a closed account: nothing to offer', { from: account('old', { status: 'closed', balanceMinor: 0 }), open: [everyday], want: undefined }],
  ])('%s', (_name, { from, open, want }) => {
    expect(balanceDestination(from, open)?.id).toBe(want);
  });

  it('the transfer it offers moves the whole balance, to that account, and leads back to closing', () => {
    expect(moveBalanceRoute(savings, everyday)).toEqual({ path: '/transfer', query: { from: 'savings', to: 'everyday', amount: '12.34', then: 'close' } });
  });
});
