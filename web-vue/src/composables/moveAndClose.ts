/**
 * "Move the balance and close" (adr/0074): an account that still holds money is never closed
 * with it (the API refuses, 422 ACCOUNT_NOT_EMPTY). Its manage page offers the transfer page,
 * filled in with the whole balance to another of the customer's open accounts (the primary
 * one first); the transfer is an ordinary one, with its review, its key and its held-send
 * rules; its receipt leads back to the manage page, which asks "Yes, close" at once.
 */
import type { RouteLocationRaw } from 'vue-router';
import { minorToInput } from '../money.ts';
import type { Account } from '../stores/accounts.ts';

/** The query that marks a transfer as the first step of closing its From account. */
export const THEN_CLOSE = 'close';

/** Where `account`'s balance would go: the primary account, else the first other open one; none for an account that may not close. */
export function balanceDestination(account: Account, openAccounts: readonly Account[]): Account | undefined {
  if (account.status !== 'open' || account.isPrimary || account.balanceMinor <= 0) return undefined;
  const others = openAccounts.filter((other) => other.id !== account.id && other.status === 'open');
  return others.find((other) => other.isPrimary) ?? others[0];
}

/** The transfer that empties `account` into `to`, marked to lead back to closing it. */
export function moveBalanceRoute(account: Account, to: Account): RouteLocationRaw {
  return { path: '/transfer', query: { from: account.id, to: to.id, amount: minorToInput(account.balanceMinor), then: THEN_CLOSE } };
}

/** The manage page of `accountId`, asking at once to close it. */
export function closeRoute(accountId: string): RouteLocationRaw {
  return { name: 'manage', params: { accountId }, query: { close: '1' } };
}
