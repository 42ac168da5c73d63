/**
 * The RateLimit fields (IETF draft-ietf-httpapi-ratelimit-headers-12) on every limited
 * operation, on PostgreSQL over HTTP with small limits: sign-up, sign-in, the payee look-up
 * and a payment by handle each say the policy that applied (`RateLimit-Policy`) and what is
 * left of it (`RateLimit`), counting down to the 429, whose `t` is its Retry-After. And the
 * server integrator's shield (adr/0043, adr/0073): a server that keeps its device token signs
 * in from an address whose other callers spent its every quota, and meets no limit at all.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import spec from '@tidewater/spec/openapi.json' with { type: 'json' };
import { bankOnPostgres, type BankOnPostgres } from '@tidewater/test-support/bankOnPostgres';
import type { Customer } from '@tidewater/test-support/bank';
import { call, type Reply } from '@tidewater/test-support/httpClient';
import { uniqueHandle } from '@tidewater/test-support/handles';

const limits = { REGISTER_ADDRESS_LIMIT: '3', SIGN_IN_FAILURE_LIMIT: '3', SIGN_IN_ADDRESS_LIMIT: '5', SIGN_IN_EMAIL_LIMIT: '100', PAYEE_LOOKUP_LIMIT: '3' };

/** The two fields of an answer, as the draft writes them: a list of `"policy";param=value` items. */
function fieldsOf(reply: Reply): { policy: Record<string, { q: number; w: number }>; left: Record<string, { r: number; t: number }> } | undefined {
  const policy = reply.headers.get('ratelimit-policy');
  const left = reply.headers.get('ratelimit');
  if (policy === null && left === null) return undefined;
  const items = (value: string | null) =>
    Object.fromEntries((value ?? '').split(', ').map((item) => {
      const [name, ...params] = item.split(';');
      expect(name).toMatch(/^"[a-z-]+"$/);
      return [JSON.parse(name!), Object.fromEntries(params.map((p) => [p.split('=')[0], Number(p.split('=')[1])]))];
    }));
  return { policy: items(policy), left: items(left) } as never;
}

describe('RateLimit fields on the limited operations', () => {
  let setup: BankOnPostgres;
  const register = (from: string, suffix: string) =>
    call(setup.api.url, 'POST', '/api/auth/register', {
      body: { email: `${suffix}@example.com`, password: 'correct horse battery', displayName: 'Rate Limit', handle: suffix, pin: '2468' },
      headers: { 'x-forwarded-for': from },
    });

  let made = 0;
  /** A customer signed up and in from an address of their own (the sign-up quota is 3 per address here). */
  async function newCustomer(): Promise<Customer & { email: string; password: string }> {
    made += 1;
    const from = `192.0.2.${made}`;
    const suffix = uniqueHandle('rl');
    const registered = await register(from, suffix);
    expect(registered.status, JSON.stringify(registered.body)).toBe(201);
    const email = `${suffix}@example.com`;
    const password = 'correct horse battery';
    const signedIn = await call(setup.api.url, 'POST', '/api/auth/token', { body: { email, password }, headers: { 'x-forwarded-for': from } });
    expect(signedIn.status).toBe(200);
    return { email, password, token: signedIn.body.accessToken, userId: registered.body.user.id, handle: suffix, pin: '2468', accountId: registered.body.account.id };
  }

  beforeAll(async () => {
    setup = await bankOnPostgres({ env: limits });
  });
  afterAll(() => setup?.stop());

  it('declares both fields on every operation that answers 429, on its success and on its 429', () => {
    const limited = Object.values(spec.paths).flatMap((item) => Object.values(item as Record<string, { operationId: string; responses: Record<string, unknown> }>))
      .filter((operation) => operation.responses['429'] && operation.operationId !== 'verifyPin');
    expect(limited.map((operation) => operation.operationId).sort()).toEqual(['createInternalTransfer', 'createToken', 'getPayee', 'register']);
    const headersOf = (response: unknown) => Object.keys((response as { headers?: object }).headers ?? {});
    const responses = spec.components.responses as Record<string, unknown>;
    for (const operation of limited) {
      const success = Object.entries(operation.responses).find(([status]) => status.startsWith('2'))![1];
      expect(headersOf(success), operation.operationId).toEqual(expect.arrayContaining(['RateLimit-Policy', 'RateLimit']));
    }
    expect(headersOf(responses.TooManyRequests)).toEqual(expect.arrayContaining(['Retry-After', 'RateLimit-Policy', 'RateLimit']));
  });

  it('counts sign-ups from one address down to the 429, whose t is its Retry-After', async () => {
    const from = '198.51.100.7';
    const stamp = String(Date.now() % 1e8);
    const first = await register(from, `a${stamp}`);
    expect(first.status).toBe(201);
    expect(fieldsOf(first)).toEqual({
      policy: { 'sign-up-address': { q: 3, w: 60 }, 'sign-up': { q: 60, w: 60 } },
      left: { 'sign-up-address': { r: 2, t: 60 }, 'sign-up': { r: expect.any(Number), t: expect.any(Number) } },
    });
    expect(fieldsOf(await register(from, `b${stamp}`))?.left['sign-up-address']?.r).toBe(1);
    expect(fieldsOf(await register(from, `c${stamp}`))?.left['sign-up-address']?.r).toBe(0);
    const refused = await register(from, `d${stamp}`);
    expect([refused.status, refused.body.errorCode]).toEqual([429, 'TOO_MANY_REQUESTS']);
    const left = fieldsOf(refused)!.left['sign-up-address']!;
    expect(left.r).toBe(0);
    expect(left.t).toBe(Number(refused.headers.get('retry-after')));
  });

  it('counts failed sign-ins, not sign-ins: a failure spends one, a right password gives its own back', async () => {
    const customer = await newCustomer();
    const from = '198.51.100.20';
    const signIn = (password: string) =>
      call(setup.api.url, 'POST', '/api/auth/token', { body: { email: customer.email, password }, headers: { 'x-forwarded-for': from } });
    const wrong = await signIn('not the password at all');
    expect(wrong.status).toBe(401);
    expect(fieldsOf(wrong)).toEqual({
      policy: { 'sign-in-email-address': { q: 3, w: 900 }, 'sign-in-address': { q: 5, w: 900 } },
      left: { 'sign-in-email-address': { r: 2, t: 900 }, 'sign-in-address': { r: 4, t: 900 } },
    });
    const right = await signIn(customer.password);
    expect(right.status).toBe(200);
    expect(fieldsOf(right)?.left).toEqual({ 'sign-in-email-address': { r: 3, t: 0 }, 'sign-in-address': { r: 5, t: 0 } });
  });

  it("shields a server integrator that keeps its device token from others' failures at its outbound address", async () => {
    const integrator = await newCustomer();
    const outbound = '203.0.113.50';
    const signIn = (email: string, password: string, deviceToken?: string) =>
      call(setup.api.url, 'POST', '/api/auth/token', { body: { email, password, ...(deviceToken ? { deviceToken } : {}) }, headers: { 'x-forwarded-for': outbound } });
    const first = await signIn(integrator.email, integrator.password);
    expect(first.status).toBe(200);
    const deviceToken = first.body.deviceToken as string;
    // Someone else behind the same address fails the integrator's email and others until the address is refused.
    for (let i = 0; i < 5; i++) await signIn(i % 2 ? integrator.email : `stranger${i}@example.com`, 'wrong password here');
    const withoutToken = await signIn(integrator.email, integrator.password);
    expect([withoutToken.status, withoutToken.body.errorCode]).toEqual([429, 'TOO_MANY_REQUESTS']);
    expect(fieldsOf(withoutToken)?.left['sign-in-address']?.r).toBe(0);
    const withToken = await signIn(integrator.email, integrator.password, deviceToken);
    expect(withToken.status, JSON.stringify(withToken.body)).toBe(200);
    expect(withToken.body.deviceToken).toBe(deviceToken);
    expect(fieldsOf(withToken)).toBeUndefined();
  });

  it('counts payee look-ups and payments by handle in one quota per customer', async () => {
    const [ada, grace] = [await newCustomer(), await newCustomer()];
    const lookUp = () => call(setup.api.url, 'GET', `/api/payees/${grace.handle}?name=Someone`, { token: ada.token });
    const looked = await lookUp();
    expect(looked.status).toBe(200);
    expect(fieldsOf(looked)).toEqual({ policy: { 'payee-lookups': { q: 3, w: 60 } }, left: { 'payee-lookups': { r: 2, t: 60 } } });
    expect((await setup.bank.deposit(ada, ada.accountId, 1_000)).status).toBe(201);
    const payment = { fromAccountId: ada.accountId, toHandle: grace.handle, amountMinor: 100 };
    const paid = await setup.bank.transfer(ada, payment);
    expect(paid.status).toBe(201);
    expect(fieldsOf(paid as Reply)?.left['payee-lookups']?.r).toBe(1);
    expect(fieldsOf(await lookUp())?.left['payee-lookups']?.r).toBe(0);
    const refused = await lookUp();
    expect(refused.status).toBe(429);
    expect(fieldsOf(refused)?.left['payee-lookups']).toEqual({ r: 0, t: Number(refused.headers.get('retry-after')) });
    // An operation without a limit carries neither field.
    expect(fieldsOf(await call(setup.api.url, 'GET', '/api/accounts', { token: ada.token }))).toBeUndefined();
  });
});
