/**
 * No stranger can lock a customer out (adr/0045), on PostgreSQL with the default limits:
 * the attack of issue 41's finding 3 for 60 s. With only the victim's email and two
 * addresses, the attacker sends 10 wrong passwords, then waits out each 429's Retry-After
 * and fails once more; meanwhile the victim signs in with the right password every 0.7 s
 * from their own address. The victim must succeed in at least 95 % of tries.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bankOnPostgres, type BankOnPostgres } from '@tidewater/test-support/bankOnPostgres';
import { call } from '@tidewater/test-support/httpClient';
import { uniqueHandle } from '@tidewater/test-support/handles';

const ATTACK_MS = 60_000;
const ATTACKERS = ['198.51.100.66', '198.51.100.67'];
const VICTIM = '192.0.2.10';

describe('a stranger failing a customer’s email from two addresses, for 60 s', () => {
  let setup: BankOnPostgres;
  const handle = uniqueHandle('victim');
  const victim = { email: `${handle}@example.com`, password: 'correct horse battery', displayName: 'Victim', handle, pin: '2468' };

  beforeAll(async () => {
    setup = await bankOnPostgres();
    expect((await call(setup.api.url, 'POST', '/api/auth/register', { body: victim })).status).toBe(201);
  });
  afterAll(() => setup?.stop());

  const signIn = (password: string, from: string) =>
    call(setup.api.url, 'POST', '/api/auth/token', { body: { email: victim.email, password }, headers: { 'x-forwarded-for': from } });

  it('leaves the victim signing in from their own address at least 95 % of the time', async () => {
    const until = Date.now() + ATTACK_MS;
    const attackerStatuses = new Map<number, number>();
    async function attacker(from: string): Promise<void> {
      for (let i = 0; i < 10 && Date.now() < until; i++) {
        const reply = await signIn('wrong password', from);
        attackerStatuses.set(reply.status, (attackerStatuses.get(reply.status) ?? 0) + 1);
      }
      while (Date.now() < until) {
        const reply = await signIn('wrong password', from);
        attackerStatuses.set(reply.status, (attackerStatuses.get(reply.status) ?? 0) + 1);
        if (reply.status === 429) await sleep(Math.min(until - Date.now(), Number(reply.headers.get('retry-after') ?? 1) * 1_000));
      }
    }
    const victimStatuses: number[] = [];
    async function owner(): Promise<void> {
      while (Date.now() < until) {
        const started = Date.now();
        victimStatuses.push((await signIn(victim.password, VICTIM)).status);
        await sleep(Math.max(0, started + 700 - Date.now()));
      }
    }
    await Promise.all([...ATTACKERS.map(attacker), owner()]);
    const succeeded = victimStatuses.filter((status) => status === 200).length;
    const share = succeeded / victimStatuses.length;
    console.log(`the victim signed in ${succeeded} of ${victimStatuses.length} times (${(share * 100).toFixed(1)} %); the attacker met ${JSON.stringify(Object.fromEntries(attackerStatuses))}`);
    expect(share).toBeGreaterThanOrEqual(0.95);
    // The attacker is still slowed down: its addresses meet 429s.
    expect(attackerStatuses.get(429) ?? 0).toBeGreaterThan(0);
  }, 120_000);
});
