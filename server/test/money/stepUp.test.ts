/**
 * Step-up on PostgreSQL, with its numbers scaled down (STEP_UP_TTL_SECONDS=2,
 * PIN_LOCK_SECONDS=3): an authorisation is single use, its customer's only, and expires;
 * withdrawals and external transfers need one; PIN checks are counted by committed
 * writes, lock after five failures in a row (parallel guesses included) and unlock. A PIN's
 * verifier is an HMAC under the pepper (adr/0053): checked in no queue, a scrypt one from
 * before remade on the next right PIN, one changed under the API's memory of it read again (adr/0047).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { randomBytes, scryptSync } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { call } from '@tidewater/test-support/httpClient';
import { uniqueHandle } from '@tidewater/test-support/handles';
import { bankOnPostgres, type BankOnPostgres } from '@tidewater/test-support/bankOnPostgres';
import { newKey, outcome, type Bank, type Customer } from '@tidewater/test-support/bank';
import { query } from '@tidewater/test-support/bankDatabase';

const iban = 'DE89370400440532013000';

describe('step-up on PostgreSQL', () => {
  let setup: BankOnPostgres;
  let url: string;
  let b: Bank;
  let ada: Customer;
  let grace: Customer;

  beforeAll(async () => {
    // One password hash at a time and two in line: sixteen sign-ups at once overflow it on any machine, however loaded.
    setup = await bankOnPostgres({ env: { VALIDATE_RESPONSES: '1', STEP_UP_TTL_SECONDS: '2', PIN_LOCK_SECONDS: '3', HASHING_CONCURRENCY: '1', HASHING_QUEUE: '2' } });
    ({ url, bank: b } = setup);
    [ada, grace] = await Promise.all([b.signUp('1357'), b.signUp('8642')]);
    await b.deposit(ada, ada.accountId, 10_000);
  });
  afterAll(() => setup?.stop());

  const failedAttempts = async (customer: Customer) =>
    (await query<{ n: number }>(url, 'SELECT pin_failed_attempts AS n FROM users WHERE id = $1', [customer.userId]))[0]!.n;

  it('issues a single-use authorisation: a second withdrawal or transfer with it is 401 AUTHORIZATION_INVALID', async () => {
    const issued = await b.verifyPin(ada, ada.pin, { operation: 'withdraw', fromAccountId: ada.accountId, amountMinor: 100 });
    expect(issued.status).toBe(201);
    expect(Date.parse(issued.body.expiresAt) - Date.now()).toBeLessThanOrEqual(2_500);
    const authorizationId = issued.body.authorizationId;
    expect((await b.withdraw(ada, ada.accountId, 100, authorizationId)).status).toBe(201);
    expect(outcome(await b.withdraw(ada, ada.accountId, 100, authorizationId))).toEqual([401, 'AUTHORIZATION_INVALID']);
    expect(outcome(await b.external(ada, { fromAccountId: ada.accountId, iban, beneficiaryName: 'G', amountMinor: 1, authorizationId }))).toEqual([401, 'AUTHORIZATION_INVALID']);
  });

  it("refuses an unknown authorisation and another customer's", async () => {
    expect(outcome(await b.withdraw(ada, ada.accountId, 100, newKey()))).toEqual([401, 'AUTHORIZATION_INVALID']);
    const gracesOwn = await b.authorize(grace, { operation: 'withdraw', fromAccountId: ada.accountId, amountMinor: 100 });
    expect(outcome(await b.withdraw(ada, ada.accountId, 100, gracesOwn))).toEqual([401, 'AUTHORIZATION_INVALID']);
    expect(outcome(await b.external(ada, { fromAccountId: ada.accountId, iban, beneficiaryName: 'G', amountMinor: 1, authorizationId: gracesOwn }))).toEqual([401, 'AUTHORIZATION_INVALID']);
  });

  // This case and the next wait side by side (an authorisation's 2 s, a PIN lock's 3 s): one is
  // ada's, the other carol's, and neither hashes while the other waits for an answer in time.
  it.concurrent('lets an authorisation expire: 401 AUTHORIZATION_EXPIRED, and nothing moves', async () => {
    const authorizationId = await b.authorize(ada, { operation: 'withdraw', fromAccountId: ada.accountId, amountMinor: 100 });
    const external = { fromAccountId: ada.accountId, iban, beneficiaryName: 'G', amountMinor: 1 };
    const externalId = await b.authorize(ada, { operation: 'createExternalTransfer', ...external });
    await sleep(2_200);
    const balance = await b.balance(ada, ada.accountId);
    expect(outcome(await b.withdraw(ada, ada.accountId, 100, authorizationId))).toEqual([401, 'AUTHORIZATION_EXPIRED']);
    expect(outcome(await b.external(ada, { ...external, authorizationId: externalId }))).toEqual([401, 'AUTHORIZATION_EXPIRED']);
    expect(await b.balance(ada, ada.accountId)).toBe(balance);
  });

  it.concurrent('counts each wrong PIN as a committed write, locks after five for PIN_LOCK_SECONDS, then lets the right PIN in', async () => {
    const carol = await b.signUp('2468');
    for (let attempt = 1; attempt <= 4; attempt++) {
      const wrong = await b.verifyPin(carol, '0000');
      expect(outcome(wrong)).toEqual([403, 'PIN_INCORRECT']);
      expect(await failedAttempts(carol)).toBe(attempt);
    }
    const fifth = await b.verifyPin(carol, '0000');
    expect(outcome(fifth)).toEqual([423, 'PIN_LOCKED']);
    expect(fifth.body.retryAfterSeconds).toBeGreaterThanOrEqual(1);
    expect(outcome(await b.verifyPin(carol))).toEqual([423, 'PIN_LOCKED']);
    await sleep(3_200);
    expect((await b.verifyPin(carol)).status).toBe(201);
    expect(await failedAttempts(carol)).toBe(0);
  });

  it('resets the count on a right PIN, so only failures in a row lock', async () => {
    const dan = await b.signUp('1928');
    for (let i = 0; i < 3; i++) await b.verifyPin(dan, '9999');
    expect((await b.verifyPin(dan)).status).toBe(201);
    for (let i = 0; i < 4; i++) expect(outcome(await b.verifyPin(dan, '9999'))).toEqual([403, 'PIN_INCORRECT']);
  });

  it('counts parallel guesses one by one: no more than five wrong verdicts are ever told', async () => {
    const erin = await b.signUp('7531');
    const replies = await Promise.all(Array.from({ length: 8 }, () => b.verifyPin(erin, '0000')));
    const codes = replies.map((reply) => reply.body.errorCode).sort();
    expect(codes).toEqual([...Array(4).fill('PIN_INCORRECT'), ...Array(4).fill('PIN_LOCKED')].sort());
    expect(await failedAttempts(erin)).toBe(5);
  });

  const pinHash = async (customer: Customer) =>
    (await query<{ h: string }>(url, 'SELECT pin_hash AS h FROM users WHERE id = $1', [customer.userId]))[0]!.h;

  it('keeps a PIN as an HMAC-SHA-256 verifier under a named pepper key, with a salt of its own', async () => {
    const [one, two] = await Promise.all([b.signUp('4391'), b.signUp('4391')]);
    const [first, second] = [await pinHash(one), await pinHash(two)];
    expect(first).toMatch(/^hmac-sha256\$[A-Za-z0-9_-]{1,16}\$[A-Za-z0-9_-]{22}\$[A-Za-z0-9_-]{43}$/);
    expect(first.split('$')[2]).not.toBe(second.split('$')[2]);
    expect(first.split('$')[3]).not.toBe(second.split('$')[3]);
    expect((await b.verifyPin(one)).status).toBe(201);
  });

  it('remakes a scrypt verifier from before as an HMAC on the next right PIN, not on a wrong one', async () => {
    const gina = await b.signUp('5566');
    const salt = randomBytes(16);
    const key = scryptSync('5566', salt, 32, { N: 2 ** 15, r: 8, p: 3, maxmem: 64 * 1024 * 1024 });
    const scrypt = ['scrypt', 2 ** 15, 8, 3, salt.toString('base64url'), key.toString('base64url')].join('$');
    await query(url, 'UPDATE users SET pin_hash = $1 WHERE id = $2', [scrypt, gina.userId]);
    expect(outcome(await b.verifyPin(gina, '6655'))).toEqual([403, 'PIN_INCORRECT']);
    expect(await pinHash(gina)).toBe(scrypt);
    expect((await b.verifyPin(gina)).status).toBe(201);
    expect(await pinHash(gina)).toMatch(/^hmac-sha256\$/);
    expect(await failedAttempts(gina)).toBe(0);
    expect((await b.verifyPin(gina)).status).toBe(201);
    expect(outcome(await b.verifyPin(gina, '6655'))).toEqual([403, 'PIN_INCORRECT']);
  });

  it('reads a verifier again when it changed under what the API remembers of it: nothing counted for the stale look (adr/0047)', async () => {
    const ivy = await b.signUp('6173');
    expect((await b.verifyPin(ivy)).status).toBe(201);
    const salt = randomBytes(16);
    const key = scryptSync('6173', salt, 32, { N: 2 ** 15, r: 8, p: 3, maxmem: 64 * 1024 * 1024 });
    await query(url, 'UPDATE users SET pin_hash = $1 WHERE id = $2', [['scrypt', 2 ** 15, 8, 3, salt.toString('base64url'), key.toString('base64url')].join('$'), ivy.userId]);
    expect(outcome(await b.verifyPin(ivy, '3716'))).toEqual([403, 'PIN_INCORRECT']);
    expect(await failedAttempts(ivy)).toBe(1);
    expect((await b.verifyPin(ivy)).status).toBe(201);
    expect(await pinHash(ivy)).toMatch(/^hmac-sha256\$/);
    expect(await failedAttempts(ivy)).toBe(0);
  });

  it('checks PINs in no queue: step-ups answer 201 while sign-ups fill the password hashing queue (and meet its 503)', async () => {
    const hana = await b.signUp('9182');
    const signUps = Array.from({ length: 16 }, () => {
      const handle = uniqueHandle('queue');
      return call(b.url, 'POST', '/api/auth/register', { body: { email: `${handle}@example.com`, password: 'correct horse battery', displayName: 'Q', handle, pin: '2468' } });
    });
    await sleep(150);
    const stepUps = await Promise.all(Array.from({ length: 4 }, () => b.verifyPin(hana)));
    expect(stepUps.map((reply) => reply.status)).toEqual([201, 201, 201, 201]);
    const signUpStatuses = (await Promise.all(signUps)).map((reply) => reply.status);
    expect(signUpStatuses).toContain(503);
  });
});
