/**
 * Opening an account under an Idempotency-Key, on PostgreSQL over HTTP (adr/0013): the
 * money sends' protocol, so one key opens one account however often it is sent; the
 * answer is replayed byte for byte; another name under the key is 422; a young claim is
 * 409 IN_FLIGHT; a stale claim whose account was opened is 409 RESULT_UNKNOWN with
 * applied: true; and a lost answer followed by a retry never opens two accounts, whether
 * the COMMIT's answer was lost, the COMMIT never arrived, or nothing got as far. The API
 * reaches the database through the TCP fault proxy (test-support's tcpProxy.ts) that loses what a
 * test names. Without a key, every request opens an account, as before.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { hashRequest } from '../src/domain/idempotency/idempotency.ts';
import { bank, newKey, outcome, type Customer } from '@tidewater/test-support/bank';
import { keyState, query } from '@tidewater/test-support/bankDatabase';
import type { TcpProxy } from '@tidewater/test-support/tcpProxy';
import type { ApiProcess } from '@tidewater/test-support/apiProcess';
import { bankOnPostgres, type BankOnPostgres } from '@tidewater/test-support/bankOnPostgres';
import { call } from '@tidewater/test-support/httpClient';

describe('opening an account under an Idempotency-Key', () => {
  let setup: BankOnPostgres;
  let proxy: TcpProxy;
  let url: string;
  let api: ApiProcess;
  let ada: Customer;

  beforeAll(async () => {
    // One quick retry: enough to show what is and is not rerun, short enough for a test.
    setup = await bankOnPostgres({ env: { VALIDATE_RESPONSES: '1', DB_MAX_RETRIES: '1', DB_RETRY_BASE_DELAY_MS: '50' }, proxy: true });
    ({ url, api } = setup);
    proxy = setup.proxy!;
    ada = await setup.bank.signUp();
  });
  afterEach(() => proxy.disarm());
  afterAll(() => setup?.stop());

  /** POST /api/accounts, answered as raw bytes too. */
  async function open(name: string, key?: string) {
    const response = await fetch(`${api.url}/api/accounts`, {
      method: 'POST',
      headers: { authorization: `Bearer ${ada.token}`, 'content-type': 'application/json', ...(key ? { 'idempotency-key': key } : {}) },
      body: JSON.stringify({ name }),
    });
    const text = await response.text();
    return { status: response.status, text, body: text ? JSON.parse(text) : undefined };
  }

  const named = async (name: string) =>
    (await query<{ id: string }>(url, 'SELECT id FROM accounts WHERE user_id = $1 AND name = $2', [ada.userId, name])).map((row) => row.id);

  it('opens one account for one key sent twice: the second answer is the first, byte for byte', async () => {
    const key = newKey();
    const first = await open('Twice', key);
    expect(first.status).toBe(201);
    expect(await open('Twice', key)).toEqual(first);
    expect(await named('Twice')).toEqual([first.body.id]);
    expect((await keyState(url, key)).records).toMatchObject([{ status: 'Executed', landed_at: expect.any(Date) }]);
  });

  it('answers every read and change of an account with the view its opening stored, byte for byte (one view: wire_account)', async () => {
    const opened = await open('One view', newKey());
    expect(opened.status).toBe(201);
    const get = async (path: string, method = 'GET', body?: unknown) => {
      const response = await fetch(`${api.url}${path}`, {
        method,
        headers: { authorization: `Bearer ${ada.token}`, 'content-type': 'application/json' },
        ...(body ? { body: JSON.stringify(body) } : {}),
      });
      expect(response.status).toBe(200);
      return response.text();
    };
    expect(await get(`/api/accounts/${opened.body.id}`)).toBe(opened.text);
    const listed = JSON.parse(await get('/api/accounts')).items.find((account: { id: string }) => account.id === opened.body.id);
    expect(JSON.stringify(listed)).toBe(opened.text);
    // A change answers the same view of the account as it now is.
    const renamed = await get(`/api/accounts/${opened.body.id}`, 'PATCH', { name: 'Renamed view' });
    expect(renamed).toBe(opened.text.replace('"One view"', '"Renamed view"'));
    const primary = await get(`/api/accounts/${opened.body.id}/primary`, 'POST');
    expect(primary).toBe(renamed.replace('"isPrimary": false', '"isPrimary": true').replace('"isPrimary":false', '"isPrimary":true'));
    await get(`/api/accounts/${ada.accountId}/primary`, 'POST');
    const closed = JSON.parse(await get(`/api/accounts/${opened.body.id}/close`, 'POST'));
    expect(Object.keys(closed)).toEqual(Object.keys(opened.body));
    expect(closed).toMatchObject({ status: 'closed', isPrimary: false, closedAt: expect.any(String) });
  });

  it('opens one account for one key sent 20 times at once; every answer is the stored one or 409 IN_FLIGHT', async () => {
    const key = newKey();
    const answers = await Promise.all(Array.from({ length: 20 }, () => open('Crowd', key)));
    const replay = await open('Crowd', key);
    expect(replay.status).toBe(201);
    for (const answer of answers) {
      if (answer.status === 201) expect(answer.text).toBe(replay.text);
      else expect([answer.status, answer.body.errorCode]).toEqual([409, 'IDEMPOTENCY_IN_FLIGHT']);
    }
    expect(await named('Crowd')).toEqual([replay.body.id]);
  });

  it('answers 422 IDEMPOTENCY_KEY_REUSED for another name, or a money send, under the same key', async () => {
    const key = newKey();
    expect((await open('First name', key)).status).toBe(201);
    const other = await open('Other name', key);
    expect([other.status, other.body.errorCode]).toEqual([422, 'IDEMPOTENCY_KEY_REUSED']);
    expect(outcome(await bank(api.url).deposit(ada, ada.accountId, 100, key))).toEqual([422, 'IDEMPOTENCY_KEY_REUSED']);
    expect(await named('Other name')).toEqual([]);
  });

  /** Leaves a claim as a request whose release failed would: Processing, owned by nobody alive. */
  async function strandedClaim(key: string, name: string, ageSeconds: number, landed: boolean) {
    await query(url, `INSERT INTO idempotency_records (id, user_id, key, operation_id, request_hash, status, owner_token, claimed_at, landed_at)
      VALUES (gen_random_uuid(), $1, $2, 'openAccount', $3, 'Processing', gen_random_uuid(), now() - $4 * interval '1 second', CASE WHEN $5 THEN now() END)`,
      [ada.userId, key, hashRequest('openAccount', {}, { name }), ageSeconds, landed]);
  }

  it('answers 409 IN_FLIGHT while a claim is Processing and young, and opens nothing', async () => {
    const key = newKey();
    await strandedClaim(key, 'Young claim', 5, false);
    const reply = await open('Young claim', key);
    expect([reply.status, reply.body.errorCode]).toEqual([409, 'IDEMPOTENCY_IN_FLIGHT']);
    expect(await named('Young claim')).toEqual([]);
  });

  it('takes over a stale claim that opened nothing, and opens the account once', async () => {
    const key = newKey();
    await strandedClaim(key, 'Taken over', 121, false);
    const reply = await open('Taken over', key);
    expect(reply.status).toBe(201);
    expect(await named('Taken over')).toEqual([reply.body.id]);
  });

  it('answers 409 RESULT_UNKNOWN with applied: true for a stale claim whose account was opened (its answer was lost)', async () => {
    const key = newKey();
    const first = await open('Lost answer', key);
    expect(first.status).toBe(201);
    // As if storing the answer had failed: the account was opened, the record never became Executed.
    await query(url, `UPDATE idempotency_records SET status = 'Processing', response_status = NULL, response_body = NULL, completed_at = NULL,
      claimed_at = now() - interval '121 seconds' WHERE key = $1`, [key]);
    const reply = await open('Lost answer', key);
    expect([reply.status, reply.body.errorCode, reply.body.applied]).toEqual([409, 'IDEMPOTENCY_RESULT_UNKNOWN', true]);
    expect(await named('Lost answer')).toEqual([first.body.id]);
  });

  it('a COMMIT whose answer was lost is found by the account it opened, and the retry replays it: one account', async () => {
    const key = newKey();
    // The opening is one statement that is its own commit (adr/0041), found on the wire by the name it carries.
    const fired = proxy.arm('dropAnswerTo', 'Commit answer lost');
    const first = await open('Commit answer lost', key);
    expect(fired()).toBe(1);
    expect(first.status).toBe(201);
    const retry = await open('Commit answer lost', key);
    expect(retry).toEqual(first);
    expect(await named('Commit answer lost')).toEqual([first.body.id]);
  });

  it('a COMMIT that never reached the database is run again, once: one account', async () => {
    const key = newKey();
    const fired = proxy.arm('cutBefore', 'Commit never sent');
    const first = await open('Commit never sent', key);
    expect(fired()).toBe(1);
    expect(first.status).toBe(201);
    expect(await open('Commit never sent', key)).toEqual(first);
    expect(await named('Commit never sent')).toEqual([first.body.id]);
  });

  it('an outage before any commit answers 503 applied: false and frees the key; the same key then opens it once', async () => {
    const key = newKey();
    const fired = proxy.arm('cutBefore', 'Outage first', 2); // the attempt and its one retry, each proven not landed
    const failed = await open('Outage first', key);
    expect(fired()).toBe(2);
    expect([failed.status, failed.body.errorCode, failed.body.applied]).toEqual([503, 'SERVICE_UNAVAILABLE', false]);
    expect(await keyState(url, key)).toEqual({ ledger: [], records: [] });
    expect(await named('Outage first')).toEqual([]);
    proxy.disarm();
    const retry = await open('Outage first', key);
    expect(retry.status).toBe(201);
    expect(await open('Outage first', key)).toEqual(retry);
    expect(await named('Outage first')).toEqual([retry.body.id]);
  });

  it('without a key, every request opens an account (as before)', async () => {
    expect((await open('No key')).status).toBe(201);
    expect((await open('No key')).status).toBe(201);
    expect(await named('No key')).toHaveLength(2);
  });

  it('refuses a key that breaks the pattern with a 400 problem, as a money send does', async () => {
    const reply = await call(api.url, 'POST', '/api/accounts', { token: ada.token, body: { name: 'Hostile' }, headers: { 'idempotency-key': "'; DROP TABLE accounts; --" } });
    expect(reply.status).toBe(400);
    expect(reply.contentType).toContain('application/problem+json');
    // The key is there and malformed: a validation failure (adr/0012); the detail names the pattern.
    expect(reply.body.errorCode).toBe('VALIDATION_FAILED');
    expect(reply.body.detail).toMatch(/idempotency-key.*pattern/i);
    expect(await named('Hostile')).toEqual([]);
  });
});
