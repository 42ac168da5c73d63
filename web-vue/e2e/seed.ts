/** Movements made through the BFF as the signed-in customer, for specs that need a history to show. */
import type { APIRequestContext } from '@playwright/test';
import { expect, type Customer } from './fixtures.ts';

/** A Maltese IBAN: 31 characters, among the longest there are. */
const LONG_IBAN = 'MT84MALT011000012345MTLCAST001S';

/** Gives the signed-in customer a deposit and a payment to a long IBAN, through the BFF; returns the first account's id. */
export async function seedMovements(request: APIRequestContext, customer: Customer): Promise<string> {
  const { csrfToken } = (await (await request.get('/bff/session')).json()) as { csrfToken: string };
  const headers = { 'X-CSRF-Token': csrfToken };
  const { items } = (await (await request.get('/api/accounts')).json()) as { items: Array<{ id: string }> };
  const accountId = items[0]!.id;
  const deposit = await request.post(`/api/accounts/${accountId}/deposits`, {
    headers: { ...headers, 'Idempotency-Key': crypto.randomUUID() },
    data: { amountMinor: 125_000, description: 'Salary for November from Analytical Engines Limited' },
  });
  expect(deposit.status()).toBe(201);
  const payment = { operation: 'createExternalTransfer', fromAccountId: accountId, amountMinor: 4_250, iban: LONG_IBAN, beneficiaryName: 'Grace Brewster Murray Hopper' };
  const stepUp = await request.post('/api/step-up', { headers, data: { pin: customer.pin, payment } });
  expect(stepUp.status()).toBe(201);
  const { authorizationId } = (await stepUp.json()) as { authorizationId: string };
  const transfer = await request.post('/api/transfers/external', {
    headers: { ...headers, 'Idempotency-Key': crypto.randomUUID() },
    data: { fromAccountId: accountId, iban: LONG_IBAN, beneficiaryName: payment.beneficiaryName, amountMinor: payment.amountMinor, authorizationId, description: 'Rent' },
  });
  expect(transfer.status()).toBe(201);
  return accountId;
}
