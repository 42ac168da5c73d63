/**
 * The sandbox (adr/0044), on PostgreSQL over HTTP: with API_SANDBOX=true each
 * `Tidewater-Simulate` makes a deposit meet its failure on the real path, answering what
 * the real failure answers, with the money moved or not as its name says (from the
 * database); the same key sent again then ends as the table in the spec says, moving the
 * money exactly once. An API without the sandbox ignores the header: an ordinary send.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startApi, type ApiProcess } from '@tidewater/test-support/apiProcess';
import { bankOnPostgres, type BankOnPostgres } from '@tidewater/test-support/bankOnPostgres';
import { newKey, type Customer } from '@tidewater/test-support/bank';
import { keyState } from '@tidewater/test-support/bankDatabase';
import { call } from '@tidewater/test-support/httpClient';

/** A deposit of 7.00 EUR into `accountId` (the customer's first account unless named). */
const deposit = (url: string, customer: Customer, key: string, simulate?: string, accountId = customer.accountId) =>
  call(url, 'POST', `/api/accounts/${accountId}/deposits`, {
    token: customer.token,
    body: { amountMinor: 700 },
    headers: { 'idempotency-key': key, ...(simulate ? { 'tidewater-simulate': simulate } : {}) },
  });

/** Sends the same key again (no header) while it answers 409 IN_FLIGHT, honouring Retry-After, up to 10 times. */
async function resendPastInFlight(url: string, customer: Customer, key: string, accountId: string) {
  let reply = await deposit(url, customer, key, undefined, accountId);
  for (let i = 0; i < 10 && reply.status === 409 && reply.body.errorCode === 'IDEMPOTENCY_IN_FLIGHT'; i++) {
    await sleep(Number(reply.headers.get('retry-after')) * 1000);
    reply = await deposit(url, customer, key, undefined, accountId);
  }
  return reply;
}

const table: Array<[string, { status: number; code: string; applied: boolean | undefined; moved: number; then: [number, string | null] }]> = [
  ['unavailable-not-applied', { status: 503, code: 'SERVICE_UNAVAILABLE', applied: false, moved: 0, then: [201, null] }],
  ['busy', { status: 503, code: 'SERVICE_UNAVAILABLE', applied: false, moved: 0, then: [201, null] }],
  ['unavailable-unknown-landed', { status: 503, code: 'SERVICE_UNAVAILABLE', applied: undefined, moved: 1, then: [201, 'true'] }],
  ['unavailable-unknown-not-landed', { status: 503, code: 'SERVICE_UNAVAILABLE', applied: undefined, moved: 0, then: [201, null] }],
  ['in-flight', { status: 409, code: 'IDEMPOTENCY_IN_FLIGHT', applied: undefined, moved: 0, then: [201, null] }],
  ['result-unknown', { status: 409, code: 'IDEMPOTENCY_RESULT_UNKNOWN', applied: true, moved: 1, then: [409, null] }],
];

// The cases run at once: each simulated send goes to an account of its own, so none waits
// behind another's lock or sees its money, and their time is the waits the answers name.
describe.concurrent('the sandbox: Tidewater-Simulate on a money send', () => {
  let setup: BankOnPostgres;
  let plain: ApiProcess;
  let ada: Customer;

  beforeAll(async () => {
    setup = await bankOnPostgres({ env: { API_SANDBOX: 'true', VALIDATE_RESPONSES: '1' } });
    // The same database behind an API without the sandbox.
    plain = await startApi({ DATABASE_URL: setup.url });
    ada = await setup.bank.signUp();
  });
  afterAll(async () => {
    await plain?.stop();
    await setup?.stop();
  });

  it.each(table)('%s: answers as the real failure does, moves the money as named, and the same key then moves it once', async (simulation, want) => {
    const key = newKey();
    const accountId = await setup.bank.openAccount(ada);
    const first = await deposit(setup.api.url, ada, key, simulation, accountId);
    expect([first.status, first.body.errorCode], JSON.stringify(first.body)).toEqual([want.status, want.code]);
    expect(first.body.applied).toBe(want.applied);
    if (want.status === 503 || want.code === 'IDEMPOTENCY_IN_FLIGHT') expect(Number(first.headers.get('retry-after'))).toBeGreaterThan(0);
    expect((await keyState(setup.url, key)).ledger).toHaveLength(want.moved);

    const again = await resendPastInFlight(setup.api.url, ada, key, accountId);
    expect([again.status, again.headers.get('idempotent-replayed')], JSON.stringify(again.body)).toEqual(want.then);
    expect((await keyState(setup.url, key)).ledger.map((row) => Number(row.amount_minor))).toEqual([700]);
  });

  it.each(['in-flight', 'unavailable-unknown-landed', 'unavailable-unknown-not-landed', 'result-unknown'])(
    '%s: the key\'s claimedAt is when the bank first received it, before and after the key is taken again',
    async (simulation) => {
      const key = newKey();
      const accountId = await setup.bank.openAccount(ada);
      // The database's clock keeps milliseconds; the request reaches it after this instant.
      const sentAt = Math.floor(Date.now());
      await deposit(setup.api.url, ada, key, simulation, accountId);
      const receivedAt = Date.now();
      const claimedAt = async () => {
        const read = await call(setup.api.url, 'GET', `/api/idempotency-keys/${key}`, { token: ada.token });
        return Date.parse(read.body.claimedAt as string);
      };
      const first = await claimedAt();
      expect(first).toBeGreaterThanOrEqual(sentAt);
      expect(first).toBeLessThanOrEqual(receivedAt);
      await resendPastInFlight(setup.api.url, ada, key, accountId);
      expect(await claimedAt()).toBe(first);
    },
  );

  it('ignores the header on an API without the sandbox: the send is an ordinary one, moved once', async () => {
    const key = newKey();
    const reply = await deposit(plain.url, ada, key, 'unavailable-not-applied');
    expect([reply.status, reply.headers.get('idempotent-replayed')], JSON.stringify(reply.body)).toEqual([201, null]);
    expect((await keyState(setup.url, key)).ledger.map((row) => Number(row.amount_minor))).toEqual([700]);
    // A value the spec does not list is refused there too, before anything is done.
    expect((await deposit(plain.url, ada, newKey(), 'everything-fine')).status).toBe(400);
  });

  it('refuses a value the spec does not list, and the header on an operation that sends no money', async () => {
    expect((await deposit(setup.api.url, ada, newKey(), 'everything-fine')).status).toBe(400);
    const listed = await call(setup.api.url, 'GET', '/api/accounts', { token: ada.token, headers: { 'tidewater-simulate': 'busy' } });
    expect([listed.status, listed.body.errorCode]).toEqual([400, 'VALIDATION_FAILED']);
  });
});
