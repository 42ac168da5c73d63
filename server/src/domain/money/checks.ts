/**
 * The looks every attempt of a send takes, shared by the sends so that an attempt and the
 * re-check before a busy answer run the same code.
 */
import { ApiProblem } from '../../errors/apiProblem.ts';
import type { AccountState, AccountsById } from './accountRows.ts';

/** The customer's own open account; 404 for one that is absent, another customer's or closed. */
export function ownOpenAccount(accounts: AccountsById, accountId: string, userId: string): AccountState {
  const account = accounts.get(accountId);
  if (!account || account.userId !== userId || account.status !== 'open') {
    throw new ApiProblem('ACCOUNT_NOT_FOUND', 'No open account of yours has this id.');
  }
  return account;
}

/** The payee's account, which must still be open (422 PAYEE_HAS_NO_OPEN_ACCOUNT). */
export function payeeOpenAccount(accounts: AccountsById, accountId: string): AccountState {
  const account = accounts.get(accountId);
  if (!account || account.status !== 'open') {
    throw new ApiProblem('PAYEE_HAS_NO_OPEN_ACCOUNT', 'The payee has no open account to receive the money.');
  }
  return account;
}

/** 422 INSUFFICIENT_FUNDS unless the account covers `amountMinor`. */
export function covers(account: AccountState, amountMinor: bigint): void {
  if (account.balanceMinor < amountMinor) throw new ApiProblem('INSUFFICIENT_FUNDS', 'The account does not hold enough money for this.');
}

/** The most a balance may hold (spec `Balance.maximum`): just under 10^15, exact in every JSON number. */
export const MAX_BALANCE_MINOR = 999_999_999_999_999n;

/** 422 BALANCE_LIMIT_EXCEEDED when `amountMinor` more would take the account past the most a balance may hold. */
export function holds(account: AccountState, amountMinor: bigint): void {
  if (account.balanceMinor + amountMinor > MAX_BALANCE_MINOR) {
    throw new ApiProblem('BALANCE_LIMIT_EXCEEDED', 'The receiving account cannot hold that much more money.');
  }
}
