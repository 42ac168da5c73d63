/**
 * Confirmation of payee (adr/0046), on PostgreSQL: a payer looks a handle up and sees its
 * owner's display name, at most PAYEE_LOOKUP_LIMIT times a window; sign-up refuses a
 * handle a payer could mistake for an existing one, or one that looks like the bank, and
 * a PIN or password a guesser tries first.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bankOnPostgres, type BankOnPostgres } from '@tidewater/test-support/bankOnPostgres';
import { outcome, type Customer } from '@tidewater/test-support/bank';
import { call } from '@tidewater/test-support/httpClient';
import { uniqueHandle } from '@tidewater/test-support/handles';

describe('payees on PostgreSQL', () => {
  let setup: BankOnPostgres;
  let url: string;
  let ada: Customer;
  const will = uniqueHandle('will');

  beforeAll(async () => {
    // Many sign-ups from one address in a minute here: the sign-up limits are another test's.
    setup = await bankOnPostgres({ env: { PAYEE_LOOKUP_LIMIT: '5', REGISTER_ADDRESS_LIMIT: '100' } });
    url = setup.api.url;
    ada = await setup.bank.signUp();
    const registered = await call(url, 'POST', '/api/auth/register', { body: { email: `${will}@example.com`, password: 'correct horse battery', displayName: 'Will Turner', handle: will, pin: '2468' } });
    expect(registered.status).toBe(201);
  });
  afterAll(() => setup?.stop());

  const register = (handle: string) =>
    call(url, 'POST', '/api/auth/register', { body: { email: `${handle}${Date.now()}@example.com`, password: 'correct horse battery', displayName: 'Mallory', handle, pin: '2468' } });

  it('shows the payer who a handle belongs to, and no more than the limit allows', async () => {
    const lookUp = (handle: string) => call(url, 'GET', `/api/payees/${handle}`, { token: ada.token });
    const found = await lookUp(will);
    expect(found.status).toBe(200);
    expect(found.body).toEqual({ handle: will, displayName: 'Will Turner' });
    expect(outcome(await lookUp('nobody_has_this'))).toEqual([404, 'PAYEE_NOT_FOUND']);
    for (let i = 0; i < 3; i++) expect((await lookUp(will)).status).toBe(200);
    const limited = await lookUp(will);
    expect(outcome(limited)).toEqual([429, 'TOO_MANY_REQUESTS']);
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
  });

  it.each([
    ['1 for i', will.replace('i', '1')],
    ['l for i', will.replace('i', 'l')],
    ['vv for w', will.replace('w', 'vv')],
  ])('refuses a handle a payer could mistake for an existing one (%s)', async (_name, handle) => {
    expect(outcome(await register(handle))).toEqual([409, 'HANDLE_TAKEN']);
  });

  it.each(['admin', 'tidewater_support', 'adm1n_2', 'support', 'my_tidewater'])('refuses the reserved-looking handle %s', async (handle) => {
    expect(outcome(await register(handle))).toEqual([409, 'HANDLE_TAKEN']);
  });

  it.each([
    ['a PIN of one repeated digit', { pin: '0000' }],
    ['a PIN that runs up', { pin: '1234' }],
    ['one of the most common PINs', { pin: '6969' }],
    ['one of the most common passwords', { password: '1234567890' }],
  ])('refuses %s at sign-up (400), and makes no customer', async (_name, weak) => {
    const handle = uniqueHandle('weak');
    const reply = await call(url, 'POST', '/api/auth/register', { body: { email: `${handle}@example.com`, password: 'correct horse battery', displayName: 'W', handle, pin: '2468', ...weak } });
    expect(outcome(reply)).toEqual([400, 'VALIDATION_FAILED']);
    expect((await register(handle)).status).toBe(201);
  });

  it('still lets a handle that merely shares letters through', async () => {
    expect((await register(uniqueHandle('wilma'))).status).toBe(201);
  });
});
