/**
 * A device that has signed in before is never held back by a stranger (adr/0043), on
 * PostgreSQL with the default limits. The victim signed in once at home and kept the
 * device token. For 30 s an attacker fails the victim's email from many addresses (a new
 * one for each try, waiting out each 429's Retry-After); meanwhile the victim, on the same
 * device but at an address the bank has never seen, signs in every 0.7 s: at least 95 %
 * must succeed. Without the device token the per-email bound still applies, and a device
 * that failed itself is known no more until it signs in.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bankOnPostgres, type BankOnPostgres } from '@tidewater/test-support/bankOnPostgres';
import { call } from '@tidewater/test-support/httpClient';
import { uniqueHandle } from '@tidewater/test-support/handles';

const ATTACK_MS = 30_000;
const HOME = '192.0.2.10';
const CAFE = '192.0.2.99';

describe('a stranger failing a customer’s email from many addresses, for 30 s', () => {
  let setup: BankOnPostgres;
  const handle = uniqueHandle('device');
  const victim = { email: `${handle}@example.com`, password: 'correct horse battery', displayName: 'Victim', handle, pin: '2468' };
  let deviceToken: string;

  beforeAll(async () => {
    setup = await bankOnPostgres();
    expect((await call(setup.api.url, 'POST', '/api/auth/register', { body: victim })).status).toBe(201);
  }, 120_000);
  afterAll(() => setup?.stop());

  const signIn = (password: string, from: string, token?: string) =>
    call(setup.api.url, 'POST', '/api/auth/token', {
      body: { email: victim.email, password, ...(token === undefined ? {} : { deviceToken: token }) },
      headers: { 'x-forwarded-for': from },
    });

  it('hands a device token at sign-in, and the same one back when it is presented', async () => {
    const first = await signIn(victim.password, HOME);
    expect(first.status).toBe(200);
    deviceToken = first.body.deviceToken as string;
    expect(deviceToken).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect((await signIn(victim.password, HOME, deviceToken)).body.deviceToken).toBe(deviceToken);
    // The bank keeps only its hash.
    const client = new pg.Client({ connectionString: setup.url });
    await client.connect();
    const stored = (await client.query<{ token_hash: string }>('SELECT token_hash FROM known_devices')).rows;
    await client.end();
    expect(stored.map((row) => row.token_hash)).not.toContain(deviceToken);
    expect(stored).toHaveLength(1);
  });

  it('lets the victim on a known device, at a new address, sign in at least 95 % of the time', async () => {
    const until = Date.now() + ATTACK_MS;
    const attackerStatuses = new Map<number, number>();
    let tries = 0;
    async function attacker(): Promise<void> {
      while (Date.now() < until) {
        tries += 1;
        const reply = await signIn('wrong password', `198.51.${Math.floor(tries / 250)}.${tries % 250}`);
        attackerStatuses.set(reply.status, (attackerStatuses.get(reply.status) ?? 0) + 1);
        if (reply.status === 429) await sleep(Math.min(until - Date.now(), Number(reply.headers.get('retry-after') ?? 1) * 1_000));
      }
    }
    const victimStatuses: number[] = [];
    async function owner(): Promise<void> {
      while (Date.now() < until) {
        const started = Date.now();
        victimStatuses.push((await signIn(victim.password, CAFE, deviceToken)).status);
        await sleep(Math.max(0, started + 700 - Date.now()));
      }
    }
    await Promise.all([attacker(), owner()]);
    const succeeded = victimStatuses.filter((status) => status === 200).length;
    const share = succeeded / victimStatuses.length;
    console.log(`the victim signed in ${succeeded} of ${victimStatuses.length} times (${(share * 100).toFixed(1)} %); the attacker met ${JSON.stringify(Object.fromEntries(attackerStatuses))}`);
    expect(share).toBeGreaterThanOrEqual(0.95);
    // The attacker got past the email's limit and was slowed down.
    expect(attackerStatuses.get(401) ?? 0).toBeGreaterThanOrEqual(10);
    expect(attackerStatuses.get(429) ?? 0).toBeGreaterThan(0);
  }, 60_000);

  it('still bounds every other device per email: no token, or a device that failed itself, waits', async () => {
    const noToken = await signIn(victim.password, '192.0.2.123');
    expect([noToken.status, noToken.body.errorCode]).toEqual([429, 'TOO_MANY_REQUESTS']);
    expect(Number(noToken.headers.get('retry-after'))).toBeGreaterThan(0);
    // A token of nobody's is no known device either.
    expect((await signIn(victim.password, '192.0.2.124', 'A'.repeat(43))).status).toBe(429);

    // The device fails once itself: from then on it is a device like any other...
    expect((await signIn('wrong password', '192.0.2.125', deviceToken)).status).toBe(401);
    expect((await signIn(victim.password, '192.0.2.126', deviceToken)).status).toBe(429);
    // ...until it signs in (here at the address it last signed in from, the customer's own).
    expect((await signIn(victim.password, CAFE, deviceToken)).status).toBe(200);
    expect((await signIn(victim.password, '192.0.2.127', deviceToken)).status).toBe(200);
  });

  it('refuses a device token that is not one, 400 before anything is counted', async () => {
    const reply = await signIn(victim.password, HOME, 'not a token');
    expect([reply.status, reply.body.errorCode]).toEqual([400, 'VALIDATION_FAILED']);
  });
});
