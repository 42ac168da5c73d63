/**
 * A sign-up flood cannot starve anyone (adr/0045), on PostgreSQL with the default limits:
 * 15 sign-ups a second for 20 s from one address while a customer signs in 6 times from
 * another; and a taken email cannot be probed faster than the limit allows.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bankOnPostgres, type BankOnPostgres } from '@tidewater/test-support/bankOnPostgres';
import { call } from '@tidewater/test-support/httpClient';
import { uniqueHandle } from '@tidewater/test-support/handles';

const visitor = () => {
  const handle = uniqueHandle('flood');
  return { email: `${handle}@example.com`, password: 'correct horse battery', displayName: 'Flood', handle, pin: '2468' };
};

describe('sign-ups under a flood', () => {
  let setup: BankOnPostgres;
  let url: string;
  const customer = visitor();

  beforeAll(async () => {
    setup = await bankOnPostgres();
    url = setup.api.url;
    expect((await call(url, 'POST', '/api/auth/register', { body: customer, headers: { 'x-forwarded-for': '192.0.2.44' } })).status).toBe(201);
  });
  afterAll(() => setup?.stop());

  const register = (body: unknown, from: string) => call(url, 'POST', '/api/auth/register', { body, headers: { 'x-forwarded-for': from } });

  it('meets 429s, and a customer signing in from elsewhere still gets in', async () => {
    const flood: Array<Promise<number>> = [];
    const started = Date.now();
    const floodDone = (async () => {
      for (let tick = 0; tick < 20 * 15; tick++) {
        flood.push(register(visitor(), '198.51.100.200').then((reply) => reply.status));
        await sleep(Math.max(0, started + (tick + 1) * (1_000 / 15) - Date.now()));
      }
    })();
    const signIns: number[] = [];
    for (let i = 0; i < 6; i++) {
      await sleep(Math.max(0, started + 1_000 + i * 3_000 - Date.now()));
      const reply = await call(url, 'POST', '/api/auth/token', { body: { email: customer.email, password: customer.password }, headers: { 'x-forwarded-for': '192.0.2.45' } });
      signIns.push(reply.status);
    }
    await floodDone;
    const statuses = await Promise.all(flood);
    const tally = statuses.reduce<Record<number, number>>((all, status) => ({ ...all, [status]: (all[status] ?? 0) + 1 }), {});
    console.log(`sign-ins from elsewhere: ${signIns.join(' ')}; the flood of ${statuses.length} met ${JSON.stringify(tally)}`);
    expect(signIns.filter((status) => status === 200).length).toBeGreaterThanOrEqual(5);
    expect(tally[429] ?? 0).toBeGreaterThan(0);
    expect(tally[201] ?? 0).toBeLessThanOrEqual(20);
  }, 90_000);

  it('answers a taken email no faster than the limit: the 21st check in a minute is 429', async () => {
    const answers: Array<[number, string]> = [];
    for (let i = 0; i < 22; i++) {
      const reply = await register({ ...visitor(), email: customer.email }, '198.51.100.201');
      answers.push([reply.status, reply.body?.errorCode]);
    }
    expect(answers.slice(0, 20).every(([status, code]) => status === 409 && code === 'EMAIL_TAKEN')).toBe(true);
    expect(answers.slice(20)).toEqual([[429, 'TOO_MANY_REQUESTS'], [429, 'TOO_MANY_REQUESTS']]);
  });
});
