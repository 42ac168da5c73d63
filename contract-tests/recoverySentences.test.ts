/**
 * Every recovery sentence of the docs, followed literally (issue 53, adr/0059): each case first
 * holds the sentence it follows to the words of the document (spec/openapi.yaml, which
 * `/docs/openapi.yaml` serves) or of the error reference (contract/src/errorReference.ts, which
 * `/docs/problems` serves, as spec/generated/errorCatalog.json holds it), then does what it says against a sandbox API on PostgreSQL, and
 * checks in the database that the money moved exactly once: the key list, the step-up recipe,
 * IDEMPOTENCY_KEY_REUSED, IDEMPOTENCY_IN_FLIGHT, an unknown outcome and a hang-up at each stage.
 */
import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { connect } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import { parse } from 'yaml';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { query } from '@tidewater/test-support/bankDatabase';
import { bankOnPostgres, type BankOnPostgres } from '@tidewater/test-support/bankOnPostgres';
import type { Customer } from '@tidewater/test-support/bank';
import { call, type Reply } from '@tidewater/test-support/httpClient';

const spec = parse(readFileSync(new URL('../spec/openapi.yaml', import.meta.url), 'utf8'));
/** The error reference as the docs' pages are made of it (spec/generated/errorCatalog.json). */
const errorReference = JSON.parse(readFileSync(new URL('../spec/generated/errorCatalog.json', import.meta.url), 'utf8')).codes as Record<string, { action: string }>;
/** Text as the reader sees it: one line, single spaces. */
const prose = (text: string) => text.replace(/\s+/g, ' ');
const introduction = prose(spec.info.description);
const keyListDescription = prose(spec.paths['/api/idempotency-keys'].get.description);
const unauthorizedDescription = prose(spec.components.responses.Unauthorized.description);

let setup: BankOnPostgres;
let ada: Customer;

beforeAll(async () => {
  // Retry-After of an outage is the back-off cap in seconds: 1 s here, so the waits followed stay short.
  setup = await bankOnPostgres({ env: { API_SANDBOX: 'true', DB_RETRY_MAX_DELAY_MS: '1000' } });
  ada = await setup.bank.signUp('4821');
  const funded = await setup.bank.deposit(ada, ada.accountId, 1_000_00);
  expect(funded.status).toBe(201);
});
afterAll(() => setup?.stop());

const depositPath = () => `/api/accounts/${ada.accountId}/deposits`;
const withdrawalPath = () => `/api/accounts/${ada.accountId}/withdrawals`;

/** One send of `body` under `key` (`simulate`: the sandbox failure it meets). */
function send(path: string, body: unknown, key: string, simulate?: string): Promise<Reply> {
  return call(setup.api.url, 'POST', path, { token: ada.token, body, headers: { 'idempotency-key': key, ...(simulate ? { 'tidewater-simulate': simulate } : {}) } });
}

/** What `GET /api/idempotency-keys/{key}` answers. */
async function keyState(key: string): Promise<{ state: string; answer: { status: number; body: Record<string, unknown> } | null }> {
  const reply = await call(setup.api.url, 'GET', `/api/idempotency-keys/${key}`, { token: ada.token });
  expect(reply.status).toBe(200);
  return reply.body;
}

/**
 * "Keep the key and resend the same request with it" until an answer other than 503 or 409
 * IN_FLIGHT comes, waiting `Retry-After` each time (the introduction's outage section).
 */
async function resendUntilKnown(path: string, body: unknown, key: string): Promise<Reply> {
  for (let attempt = 0; attempt < 20; attempt++) {
    const reply = await send(path, body, key);
    const inFlight = reply.status === 409 && reply.body.errorCode === 'IDEMPOTENCY_IN_FLIGHT';
    if (reply.status !== 503 && !inFlight) return reply;
    await sleep(Number(reply.headers.get('retry-after')) * 1000);
  }
  throw new Error(`no known outcome for ${key} in 20 tries`);
}

/** The amounts the ledger holds under `key`. */
async function movedUnder(key: string): Promise<number[]> {
  const rows = await query<{ amount: string }>(setup.url, 'SELECT amount_minor::text AS amount FROM ledger_entries WHERE idempotency_key = $1', [key]);
  return rows.map((row) => Number(row.amount));
}

async function approve(amountMinor: number): Promise<string> {
  return setup.bank.authorize(ada, { operation: 'withdraw', fromAccountId: ada.accountId, amountMinor });
}

describe('the recovery sentences of the docs, followed literally, move money once', () => {
  it('the key list is partial: a key missing from it is read by itself, never sent again', async () => {
    expect(keyListDescription).toContain('The list is partial');
    expect(keyListDescription).toContain('A key missing here is never proof that its send did not land: to learn one key\'s fate, read `GET /api/idempotency-keys/{key}`');
    const keys = Array.from({ length: 55 }, () => randomUUID());
    for (const key of keys) expect((await send(depositPath(), { amountMinor: 1_00 }, key)).status).toBe(201);

    const listed = await call(setup.api.url, 'GET', '/api/idempotency-keys', { token: ada.token });
    expect(listed.status).toBe(200);
    const inList = new Set((listed.body.items as Array<{ key: string }>).map((item) => item.key));
    const missing = keys.filter((key) => !inList.has(key));
    expect(missing.length).toBeGreaterThanOrEqual(5);
    for (const key of missing) expect((await keyState(key)).state).toBe('landed');
    for (const key of keys) expect(await movedUnder(key)).toEqual([1_00]);
  });

  it('AUTHORIZATION_INVALID: a new PIN check, the same request and key with the new authorizationId', async () => {
    const recipe = 'Check the PIN again (`verifyPin`) and send the same request, same key, with the new `authorizationId`.';
    expect(errorReference.AUTHORIZATION_INVALID!.action).toContain(recipe);
    expect(unauthorizedDescription).toContain('check the PIN again and send the same request, same Idempotency-Key, with the new `authorizationId`');
    const key = randomUUID();
    const refused = await send(withdrawalPath(), { amountMinor: 3_00, authorizationId: randomUUID() }, key);
    expect([refused.status, refused.body.errorCode]).toEqual([401, 'AUTHORIZATION_INVALID']);
    const sent = await send(withdrawalPath(), { amountMinor: 3_00, authorizationId: await approve(3_00) }, key);
    expect(sent.status).toBe(201);
    expect(await movedUnder(key)).toEqual([-3_00]);
  });

  it('the recipe when the key already holds an answer: KEY_REUSED, then the key read, never a new key', async () => {
    expect(errorReference.AUTHORIZATION_EXPIRED!.action).toContain('If that answers `422 IDEMPOTENCY_KEY_REUSED`, the key already holds the outcome of an earlier request of this payment: read it (`GET /api/idempotency-keys/{key}`) and take that outcome; never send the payment under a new key.');
    expect(errorReference.IDEMPOTENCY_KEY_REUSED!.action).toMatch(/^First read the key's state \(`GET \/api\/idempotency-keys\/\{key\}`\)/);
    expect(errorReference.IDEMPOTENCY_KEY_REUSED!.action).toContain('never send it again under a new key');
    expect(introduction).toContain('first read the key\'s state (`GET /api/idempotency-keys/{key}`)');
    const before = await setup.bank.balance(ada, ada.accountId);
    const key = randomUUID();
    // The first request lands and its answer is lost: the reader does not know it moved.
    const lost = await send(withdrawalPath(), { amountMinor: 7_00, authorizationId: await approve(7_00) }, key, 'unavailable-unknown-landed');
    expect([lost.status, lost.body.applied]).toEqual([503, undefined]);
    // The reader approves the payment again and sends the same key with the new authorisation.
    const reused = await send(withdrawalPath(), { amountMinor: 7_00, authorizationId: await approve(7_00) }, key);
    expect([reused.status, reused.body.errorCode]).toEqual([422, 'IDEMPOTENCY_KEY_REUSED']);
    // As the advice says first: the key's state is this payment's outcome.
    const read = await keyState(key);
    expect([read.state, read.answer?.status, read.answer?.body.amountMinor]).toEqual(['landed', 201, -7_00]);
    expect(await movedUnder(key)).toEqual([-7_00]);
    expect(await setup.bank.balance(ada, ada.accountId)).toBe(before - 7_00);
  });

  it('IDEMPOTENCY_IN_FLIGHT: wait Retry-After, then the same request with the same key', async () => {
    expect(errorReference.IDEMPOTENCY_IN_FLIGHT!.action).toBe('Wait `Retry-After` seconds, then send the same request with the same key.');
    const key = randomUUID();
    const first = await send(depositPath(), { amountMinor: 11_00 }, key, 'in-flight');
    expect([first.status, first.body.errorCode]).toEqual([409, 'IDEMPOTENCY_IN_FLIGHT']);
    expect(Number(first.headers.get('retry-after'))).toBeGreaterThan(0);
    expect((await resendUntilKnown(depositPath(), { amountMinor: 11_00 }, key)).status).toBe(201);
    expect(await movedUnder(key)).toEqual([11_00]);
  });

  it.each(['unavailable-unknown-landed', 'unavailable-unknown-not-landed'])('an unknown outcome (%s): the same request under the same key, never a new key', async (simulate) => {
    expect(introduction).toContain('keep the key and resend the same request with it');
    expect(introduction).toContain('Never make a new key for a send whose outcome you do not know.');
    const key = randomUUID();
    const first = await send(depositPath(), { amountMinor: 13_00 }, key, simulate);
    expect([first.status, first.body.applied]).toEqual([503, undefined]);
    expect((await resendUntilKnown(depositPath(), { amountMinor: 13_00 }, key)).status).toBe(201);
    expect(await movedUnder(key)).toEqual([13_00]);
  });

  /** Writes a deposit's request on a raw socket, `cut` bytes short of its end, and hangs up `afterMs` later. */
  async function hangUp(key: string, amountMinor: number, cut: number, afterMs: number): Promise<void> {
    const body = JSON.stringify({ amountMinor });
    const { hostname, port } = new URL(setup.api.url);
    const request = [`POST ${depositPath()} HTTP/1.1`, `host: ${hostname}:${port}`, `authorization: Bearer ${ada.token}`, 'content-type: application/json', `content-length: ${body.length}`, `idempotency-key: ${key}`, '', body].join('\r\n');
    const socket = connect(Number(port), hostname);
    socket.on('error', () => {});
    await new Promise<void>((resolve) => socket.once('connect', resolve));
    socket.write(request.slice(0, request.length - cut));
    await sleep(afterMs);
    socket.destroy();
  }

  it.each([
    // The stage a hang-up meets is the server's to know: these timings reach each of them on
    // this machine (nothing ran; the statements; the COMMIT sent or done), and the reader's rule is one.
    ['before the whole request arrived', 3, 0],
    ['at once after the whole request', 0, 0],
    ['2 ms after the whole request', 0, 2],
    ['50 ms after the whole request', 0, 50],
  ])('a hang-up %s: an unknown outcome, read or resent under the same key', async (_stage, cut, afterMs) => {
    expect(introduction).toContain('You cannot tell these apart from your side, so a hang-up is an unknown outcome: keep the key and resend the same request with it (or read `GET /api/idempotency-keys/{key}` first); it never moves money twice.');
    const key = randomUUID();
    await hangUp(key, 17_00, cut, afterMs);
    const read = await keyState(key);
    expect(['unknown', 'inFlight', 'landed']).toContain(read.state);
    if (cut > 0) expect(read.state).toBe('unknown');
    expect((await resendUntilKnown(depositPath(), { amountMinor: 17_00 }, key)).status).toBe(201);
    expect(await movedUnder(key)).toEqual([17_00]);
  });
});
