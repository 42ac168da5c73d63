/**
 * What the client's tests share: a customer signed up and in through the client alone
 * (the docs' Getting started: register, then a token, then `Authorization: Bearer`), a
 * PIN check for one payment, and the bank's database read behind the API's back.
 */
import { expect } from 'vitest';
import { query } from '@tidewater/test-support/bankDatabase';
import { uniqueHandle } from '@tidewater/test-support/handles';
import { createTidewaterClient, type components, type TidewaterClient } from '../src/index.ts';

/** A signed-in customer and their client. */
export interface TestCustomer {
  readonly api: TidewaterClient;
  readonly userId: string;
  readonly handle: string;
  readonly accountId: string;
  readonly pin: string;
}

/** Registers a new customer and signs them in, through the client only. */
export async function signUp(baseUrl: string, pin = '2468'): Promise<TestCustomer> {
  const anonymous = createTidewaterClient({ baseUrl });
  const handle = uniqueHandle('client');
  const visitor = { email: `${handle}@example.com`, password: 'correct horse battery', displayName: 'Client Test', handle, pin };
  const registered = await anonymous.POST('/api/auth/register', { body: visitor });
  expect(registered.response.status, JSON.stringify(registered.error)).toBe(201);
  const token = await anonymous.POST('/api/auth/token', { body: { email: visitor.email, password: visitor.password } });
  expect(token.response.status, JSON.stringify(token.error)).toBe(200);
  const accessToken = token.data!.accessToken;
  const api = createTidewaterClient({ baseUrl, accessToken: () => accessToken });
  return { api, userId: registered.data!.user.id, handle: visitor.handle, accountId: registered.data!.account.id, pin };
}

/** A PIN check that approves exactly `payment`; its authorization id. */
export async function approve(customer: TestCustomer, payment: components['schemas']['ApprovedPayment']): Promise<string> {
  const approved = await customer.api.POST('/api/step-up', { body: { pin: customer.pin, payment } });
  expect(approved.response.status, JSON.stringify(approved.error)).toBe(201);
  return approved.data!.authorizationId;
}

/** The amounts the ledger holds under `key`, smallest first (a transfer's two movements, or one). */
export async function movedUnder(url: string, key: string): Promise<number[]> {
  const rows = await query<{ amount: string }>(url, 'SELECT amount_minor::text AS amount FROM ledger_entries WHERE idempotency_key = $1 ORDER BY amount_minor', [key]);
  return rows.map((row) => Number(row.amount));
}

/** An account's balance, from the database. */
export async function balanceOf(url: string, accountId: string): Promise<number> {
  const rows = await query<{ balance: string }>(url, 'SELECT balance_minor::text AS balance FROM accounts WHERE id = $1', [accountId]);
  return Number(rows[0]!.balance);
}
