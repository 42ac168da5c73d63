/**
 * Handles that cannot impersonate (issue 54 item 3, adr/0064), on PostgreSQL over real
 * HTTP: one skeleton per handle (case, separators, look-alike characters and doubled
 * letters folded) held by a UNIQUE index, and reserved skeletons for the bank's name and
 * roles. Before: three simultaneous look-alikes all registered (no unique index), the five
 * separator and doubled-letter variants of a customer's handle all registered beside it,
 * and 9 bank-like handles got through.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bankOnPostgres, type BankOnPostgres } from '@tidewater/test-support/bankOnPostgres';
import { call } from '@tidewater/test-support/httpClient';
import { uniqueHandle } from '@tidewater/test-support/handles';

let n = 0;
const tag = Date.now().toString(36).slice(-5);
const visitor = (handle: string) => {
  n += 1;
  return { email: `look${tag}${n}@example.com`, password: 'correct horse battery', displayName: 'Grace Hopper', handle, pin: '2468' };
};

describe('look-alike and bank-like handles', () => {
  let setup: BankOnPostgres;
  let url: string;

  beforeAll(async () => {
    setup = await bankOnPostgres();
    url = setup.api.url;
  }, 120_000);
  afterAll(() => setup?.stop());

  const register = (handle: string, from: string) =>
    call(url, 'POST', '/api/auth/register', { body: visitor(handle), headers: { 'x-forwarded-for': from } });
  const outcome = (reply: { status: number; body: { errorCode?: string } }) => `${reply.status} ${reply.body?.errorCode ?? ''}`.trim();

  it('lets exactly one of 10 look-alikes signing up at once through', async () => {
    const base = uniqueHandle('rc');
    const lookAlikes = ['l', '1', 'i', 'll', '_l', 'l_', 'i1', 'I', '11', 'li'].map((end) => `${base}${end}`.toLowerCase());
    const replies = await Promise.all(lookAlikes.map((handle, i) => register(handle, `192.0.2.${100 + i}`)));
    const outcomes = replies.map(outcome);
    console.log(`a race of 10 look-alikes: ${JSON.stringify(outcomes)}`);
    expect(outcomes.filter((o) => o === '201')).toHaveLength(1);
    expect(outcomes.filter((o) => o === '409 HANDLE_TAKEN')).toHaveLength(9);
  }, 60_000);

  it('refuses a handle that differs from a customer\'s only by separators or doubled letters', async () => {
    const real = `${uniqueHandle('gr')}_h`;
    expect(outcome(await register(real, '192.0.2.120'))).toBe('201');
    const variants = [`${real}_`, `_${real}`, real.replace('_h', '__h'), `${real}h`, real.replace('_h', 'h')];
    const outcomes = [];
    for (const [i, handle] of variants.entries()) outcomes.push(outcome(await register(handle, `192.0.2.${121 + i}`)));
    expect(outcomes).toEqual(variants.map(() => '409 HANDLE_TAKEN'));
  }, 60_000);

  it('refuses the bank\'s name and roles in any spacing', async () => {
    const bankLike = ['tide_water', 'tidewatr', 'tydewater', 'bankhelp', 'fraudteam', 'securityteam', 'supportdesk', 'customer_care', 'refunds', 't1dewater', 'help_desk_eu'];
    const outcomes = [];
    for (const [i, handle] of bankLike.entries()) outcomes.push(outcome(await register(handle, `192.0.2.${140 + i}`)));
    expect(outcomes).toEqual(bankLike.map(() => '409 HANDLE_TAKEN'));
    // An ordinary name that merely holds a short role word inside it is not refused, nor one
    // that only starts like a folded role word would (rotate…: no rot… name is a role).
    expect(outcome(await register(uniqueHandle('michael'), '192.0.2.160'))).toBe('201');
    expect(outcome(await register(uniqueHandle('rotate'), '192.0.2.161'))).toBe('201');
  }, 60_000);
});
