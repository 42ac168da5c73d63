/**
 * Confirmation of payee (adr/0046, adr/0072), on PostgreSQL: a payer gives a handle and the
 * name they expect, and hears match, close match (with the bank's name) or no match (a
 * handle nobody has too), at most PAYEE_LOOKUP_LIMIT times a window; sign-up refuses a
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
    setup = await bankOnPostgres({ env: { PAYEE_LOOKUP_LIMIT: '6', REGISTER_ADDRESS_LIMIT: '100' } });
    url = setup.api.url;
    ada = await setup.bank.signUp();
    const registered = await call(url, 'POST', '/api/auth/register', { body: { email: `${will}@example.com`, password: 'correct horse battery', displayName: 'Will Turner', handle: will, pin: '2468' } });
    expect(registered.status).toBe(201);
  });
  afterAll(() => setup?.stop());

  const register = (handle: string) =>
    call(url, 'POST', '/api/auth/register', { body: { email: `${handle}${Date.now()}@example.com`, password: 'correct horse battery', displayName: 'Mallory', handle, pin: '2468' } });

  const lookUp = (handle: string, name: string) => call(url, 'GET', `/api/payees/${handle}?name=${encodeURIComponent(name)}`, { token: ada.token });

  it.each([
    ['the same name, folded', '  will TURNER. ', { result: 'match', name: 'Will Turner' }],
    ['a typo', 'Wil Turner', { result: 'close_match', name: 'Will Turner' }],
    ['an initial and the last name', 'W. Turner', { result: 'close_match', name: 'Will Turner' }],
    ['another name: no name given', 'Elizabeth Swann', { result: 'no_match' }],
  ])('answers %s as confirmation of payee does', async (_name, expected, want) => {
    const checked = await lookUp(will, expected);
    expect(checked.status).toBe(200);
    expect(checked.body).toEqual(want);
  });

  it('reads a form-encoded name (a + for each space), as URLSearchParams writes it', async () => {
    const checked = await call(url, 'GET', `/api/payees/${will}?${new URLSearchParams({ name: 'Will Turner' })}`, { token: ada.token });
    expect([checked.status, checked.body]).toEqual([200, { result: 'match', name: 'Will Turner' }]);
  });

  it('answers a handle nobody has exactly as a name that does not match, and no more often than the limit allows', async () => {
    // The five look-ups above spent 5 of the 6: this one is the last in the window.
    const absent = await lookUp('nobody_has_this', 'Will Turner');
    expect([absent.status, absent.body]).toEqual([200, { result: 'no_match' }]);
    const limited = await lookUp(will, 'Will Turner');
    expect(outcome(limited)).toEqual([429, 'TOO_MANY_REQUESTS']);
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
  });

  it.each([
    ['no name', ''],
    ['a blank name', '?name=%20%20'],
    ['a control character', '?name=Will%00Turner'],
    ['a name given twice', '?name=Will&name=Turner'],
    ['a name longer than 80', `?name=${'w'.repeat(81)}`],
  ])('refuses a look-up with %s (400)', async (_name, search) => {
    expect(outcome(await call(url, 'GET', `/api/payees/${will}${search}`, { token: ada.token }))).toEqual([400, 'VALIDATION_FAILED']);
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
