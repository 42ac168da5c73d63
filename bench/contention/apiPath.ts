/**
 * The bank's own path: real HTTP sends to the API (ordered row locks, bounded lock waits,
 * ACCOUNT_WRITE_ATTEMPTS attempts, busy only after a re-check), each with its own key.
 */
import { randomUUID } from 'node:crypto';
import { uniqueHandle } from '@tidewater/test-support/handles';
import { send } from '../lib/http.ts';
import type { Outcome, Sample } from './stats.ts';

/** A signed-in customer of the API. */
export interface ApiCustomer {
  baseUrl: string;
  token: string;
  pin: string;
  /** The account sign-up opened. */
  accountId: string;
}

const requestTimeoutMs = 120_000;

/** The members of an answer the bench reads. */
interface ReplyBody {
  id?: string;
  authorizationId?: string;
  errorCode?: string;
  retryAfterSeconds?: number;
}

async function post(customer: ApiCustomer, path: string, body: unknown, key?: string): Promise<{ status: number; body: ReplyBody | undefined }> {
  const { status, text } = await send(`${customer.baseUrl}${path}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${customer.token}`, 'content-type': 'application/json', ...(key ? { 'idempotency-key': key } : {}) },
    body: JSON.stringify(body),
    timeoutMs: requestTimeoutMs,
  });
  return { status, body: text ? JSON.parse(text) : undefined };
}

/**
 * What an API the bench signs customers up on needs beside its defaults: the bench signs up
 * dozens of customers from one address in a minute, which the bank refuses as a flood
 * (REGISTER_ADDRESS_LIMIT, adr/0045), and its contention customer opens a fresh account per
 * measurement, more than a customer may hold (MAX_OPEN_ACCOUNTS_PER_CUSTOMER, adr/0041).
 */
export const benchSignUps = { REGISTER_ADDRESS_LIMIT: '100000', REGISTER_GLOBAL_LIMIT: '100000', MAX_OPEN_ACCOUNTS_PER_CUSTOMER: '100000' };

/** Signs a new customer up and in. */
export async function signUp(baseUrl: string, label: string): Promise<ApiCustomer> {
  const handle = uniqueHandle(label);
  const visitor = { email: `${handle}@example.com`, password: 'correct horse battery', displayName: label, handle, pin: '2468' };
  const json = { 'content-type': 'application/json' };
  const registered = await send(`${baseUrl}/api/auth/register`, { method: 'POST', headers: json, body: JSON.stringify(visitor) });
  if (registered.status !== 201) throw new Error(`register answered ${registered.status}: ${registered.text}`);
  const token = await send(`${baseUrl}/api/auth/token`, { method: 'POST', headers: json, body: JSON.stringify({ email: visitor.email, password: visitor.password }) });
  if (token.status !== 201 && token.status !== 200) throw new Error(`sign-in answered ${token.status}: ${token.text}`);
  const accountId = (JSON.parse(registered.text) as { account: { id: string } }).account.id;
  return { baseUrl, token: (JSON.parse(token.text) as { accessToken: string }).accessToken, pin: visitor.pin, accountId };
}

/** Opens an account and, when `fundMinor` is given, pays it in (one deposit). */
export async function openAccount(customer: ApiCustomer, name: string, fundMinor = 0): Promise<string> {
  const opened = await post(customer, '/api/accounts', { name });
  if (opened.status !== 201) throw new Error(`openAccount answered ${opened.status}`);
  if (fundMinor > 0) {
    const funded = await post(customer, `/api/accounts/${opened.body!.id}/deposits`, { amountMinor: fundMinor }, randomUUID());
    if (funded.status !== 201) throw new Error(`funding answered ${funded.status}`);
  }
  return opened.body!.id!;
}

/** One step-up authorisation per withdrawal of `amounts` from `accountId`, a few PIN checks at a time (each is a ~0.3 s hash). */
export async function authorizations(customer: ApiCustomer, accountId: string, amounts: number[]): Promise<string[]> {
  const ids: string[] = [];
  while (ids.length < amounts.length) {
    const batch = await Promise.all(amounts.slice(ids.length, ids.length + 4).map((amountMinor) =>
      post(customer, '/api/step-up', { pin: customer.pin, payment: { operation: 'withdraw', fromAccountId: accountId, amountMinor } })));
    for (const reply of batch) {
      if (reply.status !== 201) throw new Error(`step-up answered ${reply.status}`);
      ids.push(reply.body!.authorizationId!);
    }
  }
  return ids;
}

/** How an answer counts: 201 ok, 503 with a 1 s wait busy, a 422 refused, anything else other. */
function outcomeOf(reply: { status: number; body: ReplyBody | undefined }): Omit<Sample, 'ms'> {
  if (reply.status === 201) return { outcome: 'ok' };
  if (reply.status === 503 && reply.body?.retryAfterSeconds === 1) return { outcome: 'busy' };
  if (reply.status === 422) return { outcome: 'refused' };
  return { outcome: 'other' as Outcome, detail: `${reply.status} ${reply.body?.errorCode ?? ''}`.trim() };
}

/** One deposit. */
export const apiDeposit = async (customer: ApiCustomer, accountId: string, amountMinor: number) =>
  outcomeOf(await post(customer, `/api/accounts/${accountId}/deposits`, { amountMinor }, randomUUID()));

/** One internal transfer between the customer's accounts. */
export const apiTransfer = async (customer: ApiCustomer, fromAccountId: string, toAccountId: string, amountMinor: number) =>
  outcomeOf(await post(customer, '/api/transfers/internal', { fromAccountId, toAccountId, amountMinor }, randomUUID()));

/** One withdrawal with its authorisation. */
export const apiWithdraw = async (customer: ApiCustomer, accountId: string, amountMinor: number, authorizationId: string) =>
  outcomeOf(await post(customer, `/api/accounts/${accountId}/withdrawals`, { amountMinor, authorizationId }, randomUUID()));
