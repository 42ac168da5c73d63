/**
 * Failed sign-ins are limited in the database (adr/0012), on PostgreSQL with two API
 * processes: the counts are shared and survive a restart; one address cannot spray across
 * emails; a stranger's failures from elsewhere slow an email down, never lock its owner
 * out at an address they signed in from (a known device anywhere: knownDevice.test.ts); and 48 sign-ins at once cannot make a real one wait for their hashes.
 *
 * Addresses come from X-Forwarded-For, which the API honours from loopback (the BFF).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startApi, type ApiProcess } from '@tidewater/test-support/apiProcess';
import { call } from '@tidewater/test-support/httpClient';
import { startPrimary, type PgCluster } from '@tidewater/test-support/pgCluster';
import { uniqueHandle } from '@tidewater/test-support/handles';

const LIMITS = { SIGN_IN_FAILURE_LIMIT: '3', SIGN_IN_ADDRESS_LIMIT: '6', SIGN_IN_EMAIL_LIMIT: '5', SIGN_IN_DELAY_CAP_MS: '60000' };

describe('sign-in limits on PostgreSQL, across API processes', () => {
  let cluster: PgCluster;
  let first: ApiProcess;
  let second: ApiProcess;

  beforeAll(async () => {
    cluster = await startPrimary();
    const env = { DATABASE_URL: cluster.urlFor('tidewater'), ...LIMITS };
    [first, second] = await Promise.all([startApi(env), startApi(env)]);
  }, 120_000);
  afterAll(async () => {
    await Promise.all([first?.stop(), second?.stop()]);
    await cluster?.destroy();
  });

  async function customer(api = first) {
    const handle = uniqueHandle('lim');
    const who = { email: `${handle}@example.com`, password: 'correct horse battery', displayName: 'L', handle, pin: '2468' };
    expect((await call(api.url, 'POST', '/api/auth/register', { body: who })).status).toBe(201);
    return who;
  }
  const signIn = (api: ApiProcess, email: string, password: string, from = '203.0.113.7') =>
    call(api.url, 'POST', '/api/auth/token', { body: { email, password }, headers: { 'x-forwarded-for': from } });

  it('shares the count between API processes and keeps it across a restart', async () => {
    const who = await customer();
    expect((await signIn(first, who.email, 'wrong password')).status).toBe(401);
    expect((await signIn(second, who.email, 'wrong password')).status).toBe(401);
    expect((await signIn(first, who.email, 'wrong password')).status).toBe(401);
    const refused = await signIn(second, who.email, who.password);
    expect([refused.status, refused.body.errorCode]).toEqual([429, 'TOO_MANY_REQUESTS']);
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
    await first.stop();
    first = await startApi({ DATABASE_URL: cluster.urlFor('tidewater'), ...LIMITS });
    expect((await signIn(first, who.email, who.password)).status).toBe(429);
  });

  it("locks a stranger's address out of an email, not the owner at theirs", async () => {
    const who = await customer();
    for (let i = 0; i < 3; i++) expect((await signIn(first, who.email, 'guess', '198.51.100.1')).status).toBe(401);
    expect((await signIn(first, who.email, who.password, '198.51.100.1')).status).toBe(429);
    expect((await signIn(first, who.email, who.password, '192.0.2.55')).status).toBe(200);
  });

  it('stops spraying from one address across emails', async () => {
    const emails = [];
    for (let i = 0; i < 7; i++) emails.push(await customer()); // one at a time: hashing is bounded
    const from = '198.51.100.9';
    for (const who of emails.slice(0, 6)) expect((await signIn(first, who.email, 'guess', from)).status).toBe(401);
    const seventh = emails[6]!;
    expect((await signIn(first, seventh.email, seventh.password, from)).status).toBe(429);
    expect((await signIn(first, seventh.email, seventh.password, '192.0.2.77')).status).toBe(200);
  });

  it('slows the addresses that failed an email many times, and fresh ones, with a growing delay, never the owner at their own address', async () => {
    const who = await customer();
    // The owner signs in at home once: the address is theirs from now on (adr/0043).
    expect((await signIn(first, who.email, who.password, '192.0.2.200')).status).toBe(200);
    for (let i = 0; i < 5; i++) expect((await signIn(first, who.email, 'guess', `198.51.100.${20 + i}`)).status).toBe(401);
    // The owner's address failed nothing: strangers' failures do not delay it.
    expect((await signIn(first, who.email, who.password, '192.0.2.200')).status).toBe(200);
    // An address this customer never signed in from, with no device token, waits: spraying from many addresses is bounded per email.
    expect((await signIn(first, who.email, who.password, '198.51.100.99')).status).toBe(429);
    // A sprayer's address that already failed this email waits its turn.
    const slowed = await signIn(first, who.email, 'guess', '198.51.100.20');
    expect(slowed.status).toBe(429);
    expect(Number(slowed.headers.get('retry-after'))).toBeLessThanOrEqual(2);
    await new Promise((resolve) => setTimeout(resolve, 2_100));
    expect((await signIn(first, who.email, 'guess', '198.51.100.20')).status).toBe(401);
  });

  it('answers a real sign-in at once, or with a 1 s wait, while 48 others hash', async () => {
    const who = await customer();
    const crowd = Array.from({ length: 48 }, (_, i) => signIn(second, `crowd${i}@example.com`, 'whatever-password', `203.0.113.${100 + (i % 50)}`));
    await new Promise((resolve) => setTimeout(resolve, 50));
    const started = Date.now();
    const real = await signIn(second, who.email, who.password, '192.0.2.150');
    const tookMs = Date.now() - started;
    const answers = await Promise.all(crowd);
    expect([200, 503]).toContain(real.status);
    if (real.status === 503) expect(real.body.retryAfterSeconds).toBe(1);
    expect(tookMs).toBeLessThan(2_500);
    const refusedAtOnce = answers.filter((a) => a.status === 503 && a.body.retryAfterSeconds === 1);
    expect(refusedAtOnce.length).toBeGreaterThan(0);
    console.log(`a real sign-in beside 48 others: ${real.status} in ${tookMs} ms; ${refusedAtOnce.length} of the 48 were told to wait 1 s`);
  });
});
