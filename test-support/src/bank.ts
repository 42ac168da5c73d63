/**
 * A small client of the bank for the API's tests: sign a customer up and in, and make
 * each call of the money family over real HTTP (httpClient.ts). Every send makes
 * a fresh Idempotency-Key unless the test names one.
 */
import { randomUUID } from 'node:crypto';
import { expect } from 'vitest';
import { call, type Reply } from './httpClient.ts';
import { uniqueHandle } from './handles.ts';

/** A signed-in customer. */
export interface Customer {
  token: string;
  userId: string;
  handle: string;
  pin: string;
  /** Their first ("Everyday", primary) account. */
  accountId: string;
}

let count = 0;

/** A new Idempotency-Key. */
export const newKey = () => randomUUID();

/** The payment a step-up approves (spec `ApprovedPayment`). */
export type Payment =
  | { operation: 'withdraw'; fromAccountId: string; amountMinor: number }
  | { operation: 'createInternalTransfer'; fromAccountId: string; amountMinor: number; toHandle: string }
  | { operation: 'createExternalTransfer'; fromAccountId: string; amountMinor: number; iban: string; beneficiaryName: string };

/** The payment a send's body makes leave the customer, or undefined when it needs no step-up (a transfer between own accounts). */
export function paymentOf(operation: 'createInternalTransfer' | 'createExternalTransfer', body: Record<string, unknown>): Payment | undefined {
  const common = { fromAccountId: String(body.fromAccountId), amountMinor: Number(body.amountMinor) };
  if (operation === 'createExternalTransfer') return { operation, ...common, iban: String(body.iban), beneficiaryName: String(body.beneficiaryName) };
  return typeof body.toHandle === 'string' ? { operation, ...common, toHandle: body.toHandle } : undefined;
}

/** The bank at `url`. */
export function bank(url: string) {
  const send = (customer: Customer, method: string, path: string, body?: unknown, key?: string) =>
    call(url, method, path, { token: customer.token, body, headers: key ? { 'idempotency-key': key } : {} });

  /** A fresh step-up authorisation id for `payment`. */
  async function authorize(customer: Customer, payment: Payment): Promise<string> {
    const reply = await send(customer, 'POST', '/api/step-up', { pin: customer.pin, payment });
    expect(reply.status, JSON.stringify(reply.body)).toBe(201);
    return reply.body.authorizationId;
  }

  // A send the test gives no authorisation gets one for exactly its payment, as the customer
  // would approve it, once per key: a resend under the same key is the same request.
  const approvedPerKey = new Map<string, Promise<string>>();
  async function approved(customer: Customer, key: string, payment: Payment | undefined, given: unknown): Promise<Record<string, unknown>> {
    if (given !== undefined || !payment) return {};
    let authorizationId = approvedPerKey.get(key);
    if (!authorizationId) approvedPerKey.set(key, (authorizationId = authorize(customer, payment)));
    return { authorizationId: await authorizationId };
  }

  /** One try at signing a new visitor up and in: the customer, or the 503 that refused a step. */
  async function trySignUp(pin: string): Promise<Customer | Reply> {
    count += 1;
    const handle = uniqueHandle('m');
    const visitor = { email: `${handle}@example.com`, password: 'correct horse battery', displayName: `Money ${count}`, handle, pin };
    const registered = await call(url, 'POST', '/api/auth/register', { body: visitor });
    if (registered.status === 503) return registered;
    expect(registered.status, JSON.stringify(registered.body)).toBe(201);
    const token = await call(url, 'POST', '/api/auth/token', { body: { email: visitor.email, password: visitor.password } });
    if (token.status === 503) return token;
    expect(token.status, JSON.stringify(token.body)).toBe(200);
    return { token: token.body.accessToken, userId: registered.body.user.id, handle: visitor.handle, pin, accountId: registered.body.account.id };
  }
  const refused = (attempt: Customer | Reply): attempt is Reply => 'status' in attempt;

  return {
    url,
    async signUp(pin = '2468'): Promise<Customer> {
      const attempt = await trySignUp(pin);
      if (refused(attempt)) expect.fail(`sign-up answered 503: ${JSON.stringify(attempt.body)}`);
      return attempt;
    },
    /**
     * Signs up, again (a new visitor) after a 503, up to `attempts` times a second apart: the
     * set-up of a suite whose API runs a short deadline (1.5 s), where on a loaded 2-core
     * machine the password hash (scrypt, ~0.27 s of a core) can outlast it.
     */
    async signUpPatiently(pin = '2468', attempts = 6): Promise<Customer> {
      for (let attempt = 1; ; attempt++) {
        const tried = await trySignUp(pin);
        if (!refused(tried)) return tried;
        if (attempt >= attempts) expect.fail(`sign-up answered 503 ${attempts} times: ${JSON.stringify(tried.body)}`);
        await new Promise((resolve) => setTimeout(resolve, 1_000));
      }
    },
    async openAccount(customer: Customer, name = 'Savings'): Promise<string> {
      const opened = await send(customer, 'POST', '/api/accounts', { name });
      expect(opened.status).toBe(201);
      return opened.body.id;
    },
    deposit: (customer: Customer, accountId: string, amountMinor: number, key = newKey(), description?: string) =>
      send(customer, 'POST', `/api/accounts/${accountId}/deposits`, { amountMinor, ...(description ? { description } : {}) }, key),
    /** A withdrawal; without `authorizationId`, approved with the customer's PIN for exactly this one. */
    async withdraw(customer: Customer, accountId: string, amountMinor: number, authorizationId?: string, key = newKey()) {
      const approval = await approved(customer, key, { operation: 'withdraw', fromAccountId: accountId, amountMinor }, authorizationId);
      return send(customer, 'POST', `/api/accounts/${accountId}/withdrawals`, { amountMinor, authorizationId, ...approval }, key);
    },
    /** A transfer inside the bank; one by handle without `authorizationId` is approved with the PIN for exactly this one. */
    async transfer(customer: Customer, body: Record<string, unknown>, key = newKey()) {
      const approval = await approved(customer, key, paymentOf('createInternalTransfer', body), body.authorizationId);
      return send(customer, 'POST', '/api/transfers/internal', { ...body, ...approval }, key);
    },
    /** A transfer to an IBAN; without `authorizationId`, approved with the PIN for exactly this one. */
    async external(customer: Customer, body: Record<string, unknown>, key = newKey()) {
      const approval = await approved(customer, key, paymentOf('createExternalTransfer', body), body.authorizationId);
      return send(customer, 'POST', '/api/transfers/external', { ...body, ...approval }, key);
    },
    /** A PIN check for `payment` (by default a withdrawal of 1 cent from their first account). */
    verifyPin: (customer: Customer, pin = customer.pin, payment: Payment = { operation: 'withdraw', fromAccountId: customer.accountId, amountMinor: 1 }) =>
      send(customer, 'POST', '/api/step-up', { pin, payment }),
    authorize,
    /** Approves `payment` now for the send under `key` (before a test arms a fault the PIN check must not meet). */
    async approveAhead(customer: Customer, key: string, payment: Payment): Promise<void> {
      approvedPerKey.set(key, Promise.resolve(await authorize(customer, payment)));
    },
    rename: (customer: Customer, accountId: string, name: string) => send(customer, 'PATCH', `/api/accounts/${accountId}`, { name }),
    close: (customer: Customer, accountId: string) => send(customer, 'POST', `/api/accounts/${accountId}/close`),
    setPrimary: (customer: Customer, accountId: string) => send(customer, 'POST', `/api/accounts/${accountId}/primary`),
    account: (customer: Customer, accountId: string) => send(customer, 'GET', `/api/accounts/${accountId}`),
    async balance(customer: Customer, accountId: string): Promise<number> {
      const reply = await send(customer, 'GET', `/api/accounts/${accountId}`);
      expect(reply.status).toBe(200);
      return reply.body.balanceMinor;
    },
    transactions: (customer: Customer, query: Record<string, string | number>) =>
      send(customer, 'GET', `/api/transactions?${new URLSearchParams(Object.entries(query).map(([k, v]) => [k, String(v)]))}`),
  };
}

/** The bank's client type. */
export type Bank = ReturnType<typeof bank>;

/** `[status, errorCode]` of a reply, for one readable assertion. */
export const outcome = (reply: Reply) => [reply.status, reply.body?.errorCode ?? null];
