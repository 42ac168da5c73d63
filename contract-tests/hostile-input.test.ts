/**
 * Hostile input is normal input (adr/0012): every probe an attacker or a fuzzer sent that
 * reached a 500, a bare answer of Node's or a misleading status, as one table. Each row
 * sends one request to the real API (or the real BFF) on a throwaway PostgreSQL, wants a
 * clear problem+json 4xx (or the right 2xx), and checks from the database that nothing
 * was applied. With VALIDATE_RESPONSES=1 every answer the API gives is also checked
 * against the spec on its way out.
 */
import { randomUUID } from 'node:crypto';
import { SignJWT } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startBff, type BffProcess } from '@tidewater/test-support/bffProcess';
import { Browser } from '@tidewater/test-support/browser';
import { query } from '@tidewater/test-support/bankDatabase';
import { uniqueHandle } from '@tidewater/test-support/handles';
import { startApi, type ApiProcess } from '@tidewater/test-support/apiProcess';
import { startPrimary, type PgCluster } from '@tidewater/test-support/pgCluster';

/** What a probe got back. */
interface Got {
  status: number;
  contentType: string;
  body: string;
  headers: Headers;
}

interface World {
  api: ApiProcess;
  bff: BffProcess;
  url: string;
  token: string;
  userId: string;
  accountId: string;
  /** An account whose balance sits 5 minor units under the most a balance may hold. */
  fullAccountId: string;
  browser: Browser;
}

const MAX_BALANCE = 999_999_999_999_999n;
let world: World;
let cluster: PgCluster;

/** Sends a raw request (the body as given, not re-encoded). */
async function send(base: string, method: string, path: string, options: { body?: string; headers?: Record<string, string>; token?: string } = {}): Promise<Got> {
  const headers: Record<string, string> = { ...(options.body !== undefined ? { 'content-type': 'application/json' } : {}), ...options.headers };
  if (options.token) headers.authorization ??= `Bearer ${options.token}`;
  const response = await fetch(`${base}${path}`, { method, headers, body: options.body });
  return { status: response.status, contentType: response.headers.get('content-type') ?? '', body: await response.text(), headers: response.headers };
}
const api = (method: string, path: string, options: Parameters<typeof send>[3] = {}) => send(world.api.url, method, path, { token: world.token, ...options });
const keyed = () => ({ 'idempotency-key': randomUUID() });
const count = async (sql: string, values: unknown[] = []) => Number((await query<{ n: string }>(world.url, sql, values))[0]!.n);
const deep = (levels: number) => `${'['.repeat(levels)}1${']'.repeat(levels)}`;

/** One probe: what it sends, what it must get, and what must not have happened. */
type Probe = [name: string, row: { send: () => Promise<Got>; status: number; errorCode?: string; unchanged?: () => Promise<unknown> }];

// prettier-ignore
const probes: Probe[] = [
  ['a NUL in a new account\'s name', { send: () => api('POST', '/api/accounts', { body: '{"name":"Sav\\u0000ings"}' }), status: 400, errorCode: 'VALIDATION_FAILED', unchanged: () => count("SELECT count(*) FROM accounts WHERE name LIKE 'Sav%'") }],
  ['a NUL in a rename', { send: () => api('PATCH', `/api/accounts/${world.accountId}`, { body: '{"name":"Every\\u0000day"}' }), status: 400, errorCode: 'VALIDATION_FAILED', unchanged: () => query(world.url, 'SELECT name FROM accounts WHERE id = $1', [world.accountId]) }],
  ['a NUL in a display name', { send: () => send(world.api.url, 'POST', '/api/auth/register', { body: JSON.stringify({ email: `nul${Date.now()}@example.com`, password: 'correct horse battery', displayName: 'A\u0000da', handle: uniqueHandle('nul'), pin: '2468' }) }), status: 400, errorCode: 'VALIDATION_FAILED', unchanged: () => count('SELECT count(*) FROM users') }],
  ['a NUL in a deposit\'s description', { send: () => api('POST', `/api/accounts/${world.accountId}/deposits`, { body: '{"amountMinor":100,"description":"gift\\u0000"}', headers: keyed() }), status: 400, errorCode: 'VALIDATION_FAILED', unchanged: () => count('SELECT count(*) FROM ledger_entries') }],
  ['a lone surrogate in a description', { send: () => api('POST', `/api/accounts/${world.accountId}/deposits`, { body: '{"amountMinor":100,"description":"\\ud800"}', headers: keyed() }), status: 400, errorCode: 'VALIDATION_FAILED', unchanged: () => count('SELECT count(*) FROM ledger_entries') }],
  ['a lone surrogate in a beneficiary name', { send: () => api('POST', '/api/transfers/external', { body: JSON.stringify({ fromAccountId: world.accountId, iban: 'DE89370400440532013000', amountMinor: 1, authorizationId: randomUUID() }).replace('}', ',"beneficiaryName":"\\udfff"}'), headers: keyed() }), status: 400, errorCode: 'VALIDATION_FAILED', unchanged: () => count('SELECT count(*) FROM ledger_entries') }],
  ['a blank account name', { send: () => api('POST', '/api/accounts', { body: '{"name":"   "}' }), status: 400, errorCode: 'VALIDATION_FAILED', unchanged: () => count('SELECT count(*) FROM accounts') }],
  ['a no-break space and a space as an account name', { send: () => api('POST', '/api/accounts', { body: '{"name":"\\u00a0 "}' }), status: 400, errorCode: 'VALIDATION_FAILED', unchanged: () => count('SELECT count(*) FROM accounts') }],
  ['a blank rename', { send: () => api('PATCH', `/api/accounts/${world.accountId}`, { body: '{"name":" "}' }), status: 400, errorCode: 'VALIDATION_FAILED', unchanged: () => query(world.url, 'SELECT name FROM accounts WHERE id = $1', [world.accountId]) }],
  ['a name with a line break in it', { send: () => api('POST', '/api/accounts', { body: '{"name":"Sav\\nings"}' }), status: 400, errorCode: 'VALIDATION_FAILED', unchanged: () => count('SELECT count(*) FROM accounts') }],
  ['a blank display name', { send: () => send(world.api.url, 'POST', '/api/auth/register', { body: JSON.stringify({ email: `blank${Date.now()}@example.com`, password: 'correct horse battery', displayName: '   ', handle: uniqueHandle('blank'), pin: '2468' }) }), status: 400, errorCode: 'VALIDATION_FAILED', unchanged: () => count('SELECT count(*) FROM users') }],
  ['a blank beneficiary name', { send: () => api('POST', '/api/transfers/external', { body: JSON.stringify({ fromAccountId: world.accountId, iban: 'DE89370400440532013000', beneficiaryName: '  ', amountMinor: 1, authorizationId: randomUUID() }), headers: keyed() }), status: 400, errorCode: 'VALIDATION_FAILED', unchanged: () => count('SELECT count(*) FROM ledger_entries') }],
  ['a hand-made cursor', { send: () => api('GET', `/api/transactions?accountId=${world.accountId}&cursor=${Buffer.from(JSON.stringify([new Date().toISOString(), randomUUID()])).toString('base64url')}`), status: 400, errorCode: 'VALIDATION_FAILED' }],
  ['a day the calendar has not in a movement filter', { send: () => api('GET', `/api/transactions?accountId=${world.accountId}&from=2026-02-30`), status: 400, errorCode: 'VALIDATION_FAILED' }],
  ['year 0 in a movement filter', { send: () => api('GET', `/api/transactions?accountId=${world.accountId}&to=0000-01-01`), status: 400, errorCode: 'VALIDATION_FAILED' }],
  ['a range that ends before it begins', { send: () => api('GET', `/api/transactions?accountId=${world.accountId}&from=2026-12-02&to=2026-12-01`), status: 400, errorCode: 'VALIDATION_FAILED' }],
  ["LIKE's wildcards and its escape in a search", { send: () => api('GET', `/api/transactions?accountId=${world.accountId}&q=${encodeURIComponent('%_\\\'')}`), status: 200 }],
  ['an amount past a bigint in a movement filter', { send: () => api('GET', `/api/transactions?accountId=${world.accountId}&amountMinor=99999999999999999999`), status: 400, errorCode: 'VALIDATION_FAILED' }],
  ['a statement of a month before the account, as the spec answers it', { send: () => api('GET', `/api/accounts/${world.accountId}/statements/1970-01?format=csv`), status: 200 }],
  ['a PDF statement, as the spec answers it', { send: () => api('GET', `/api/accounts/${world.accountId}/statements/1970-01?format=pdf`), status: 200 }],
  ['a statement of year 0', { send: () => api('GET', `/api/accounts/${world.accountId}/statements/0000-01?format=csv`), status: 400, errorCode: 'VALIDATION_FAILED' }],
  ['a statement of a month not begun', { send: () => api('GET', `/api/accounts/${world.accountId}/statements/2999-12?format=pdf`), status: 400, errorCode: 'VALIDATION_FAILED' }],
  ['a statement in a format it does not make', { send: () => api('GET', `/api/accounts/${world.accountId}/statements/2026-01?format=..%2F..%2Fetc%2Fpasswd`), status: 400, errorCode: 'VALIDATION_FAILED' }],
  ['a statement with no format', { send: () => api('GET', `/api/accounts/${world.accountId}/statements/2026-01`), status: 400, errorCode: 'VALIDATION_FAILED' }],
  ['a statement of a month as a path', { send: () => api('GET', `/api/accounts/${world.accountId}/statements/2026-01%2F..?format=csv`), status: 400, errorCode: 'VALIDATION_FAILED' }],
  ['a hand-made cursor with a negative year', { send: () => api('GET', `/api/transactions?accountId=${world.accountId}&cursor=${Buffer.from(JSON.stringify(['-000001-01-01T00:00:00.000Z', randomUUID()])).toString('base64url')}`), status: 400, errorCode: 'VALIDATION_FAILED' }],
  ['a deposit that would take a balance past its maximum', { send: () => api('POST', `/api/accounts/${world.fullAccountId}/deposits`, { body: '{"amountMinor":6}', headers: keyed() }), status: 422, errorCode: 'BALANCE_LIMIT_EXCEEDED', unchanged: () => query(world.url, 'SELECT balance_minor FROM accounts WHERE id = $1', [world.fullAccountId]) }],
  ['a transfer that would take the payee past it', { send: () => api('POST', '/api/transfers/internal', { body: JSON.stringify({ fromAccountId: world.accountId, toAccountId: world.fullAccountId, amountMinor: 6 }), headers: keyed() }), status: 422, errorCode: 'BALANCE_LIMIT_EXCEEDED', unchanged: () => count('SELECT count(*) FROM ledger_entries') }],
  ['an Idempotency-Key that is too short', { send: () => api('POST', `/api/accounts/${world.accountId}/deposits`, { body: '{"amountMinor":1}', headers: { 'idempotency-key': 'abc' } }), status: 400, errorCode: 'VALIDATION_FAILED', unchanged: () => count('SELECT count(*) FROM ledger_entries') }],
  ['an Idempotency-Key that is too long', { send: () => api('POST', `/api/accounts/${world.accountId}/deposits`, { body: '{"amountMinor":1}', headers: { 'idempotency-key': 'k'.repeat(65) } }), status: 400, errorCode: 'VALIDATION_FAILED', unchanged: () => count('SELECT count(*) FROM ledger_entries') }],
  ['an Idempotency-Key with spaces', { send: () => api('POST', `/api/accounts/${world.accountId}/deposits`, { body: '{"amountMinor":1}', headers: { 'idempotency-key': 'a key with spaces' } }), status: 400, errorCode: 'VALIDATION_FAILED', unchanged: () => count('SELECT count(*) FROM ledger_entries') }],
  ['no Idempotency-Key at all', { send: () => api('POST', `/api/accounts/${world.accountId}/deposits`, { body: '{"amountMinor":1}' }), status: 400, errorCode: 'IDEMPOTENCY_KEY_MISSING', unchanged: () => count('SELECT count(*) FROM ledger_entries') }],
  ['a 20 kB Authorization header', { send: () => api('GET', '/api/accounts', { headers: { authorization: `Bearer ${'a'.repeat(20_000)}` } }), status: 431, errorCode: 'HEADERS_TOO_LARGE' }],
  ['HEAD on a GET operation', { send: () => api('HEAD', '/api/accounts'), status: 200 }],
  ['the bearer scheme in lower case', { send: () => api('GET', '/api/accounts', { headers: { authorization: `bearer ${world.token}` } }), status: 200 }],
  ['a token signed with the secret the source once held', { send: async () => api('GET', '/api/accounts', { headers: { authorization: `Bearer ${await new SignJWT({ fam: randomUUID() }).setProtectedHeader({ alg: 'HS256' }).setSubject(world.userId).setIssuer('tidewater-api').setExpirationTime('100y').sign(new TextEncoder().encode('tidewater-development-secret-change-me'))}` } }), status: 401, errorCode: 'UNAUTHENTICATED' }],
  ['a path with a malformed percent-escape (API)', { send: () => api('GET', '/api/accounts/%ff'), status: 400, errorCode: 'VALIDATION_FAILED' }],
  ['a JSON body nested 5,000 deep (API)', { send: () => api('POST', `/api/accounts/${world.accountId}/deposits`, { body: `{"amountMinor":1,"description":${deep(5_000)}}`, headers: keyed() }), status: 400, errorCode: 'VALIDATION_FAILED', unchanged: () => count('SELECT count(*) FROM ledger_entries') }],
  ['a path with a malformed percent-escape (BFF)', { send: () => send(world.bff.url, 'GET', '/%ff'), status: 400, errorCode: 'VALIDATION_FAILED' }],
  ['a JSON body nested 5,000 deep on /bff/login', { send: () => world.browser.call('/bff/login', { body: `{"email":${deep(5_000)}}`, headers: { 'content-type': 'application/json' } }).then(asGot), status: 400, errorCode: 'VALIDATION_FAILED' }],
  ['a method /bff/session does not have', { send: () => world.browser.call('/bff/session', { method: 'DELETE' }).then(asGot), status: 405, errorCode: 'METHOD_NOT_ALLOWED' }],
  ['a 20 kB header to the BFF', { send: () => send(world.bff.url, 'GET', '/bff/session', { headers: { 'x-padding': 'p'.repeat(20_000) } }), status: 431, errorCode: 'HEADERS_TOO_LARGE' }],
];

function asGot(answer: { status: number; headers: Headers; text: string }): Got {
  return { status: answer.status, headers: answer.headers, body: answer.text, contentType: answer.headers.get('content-type') ?? '' };
}

beforeAll(async () => {
  cluster = await startPrimary();
  const url = cluster.urlFor('tidewater');
  const started = await startApi({ DATABASE_URL: url, VALIDATE_RESPONSES: '1' });
  const bff = await startBff({ apiUrl: started.url });
  const handle = uniqueHandle('hostile');
  const who = { email: `${handle}@example.com`, password: 'correct horse battery', displayName: 'Hostile', handle, pin: '2468' };
  const registered = await send(started.url, 'POST', '/api/auth/register', { body: JSON.stringify(who) });
  const token = await send(started.url, 'POST', '/api/auth/token', { body: JSON.stringify({ email: who.email, password: who.password }) });
  const accessToken = (JSON.parse(token.body) as { accessToken: string }).accessToken;
  const full = await send(started.url, 'POST', '/api/accounts', { body: '{"name":"Full"}', token: accessToken });
  const fullAccountId = (JSON.parse(full.body) as { id: string }).id;
  await query(url, 'UPDATE accounts SET balance_minor = $1 WHERE id = $2', [String(MAX_BALANCE - 5n), fullAccountId]);
  const account = (JSON.parse(registered.body) as { account: { id: string }; user: { id: string } });
  const deposit = await send(started.url, 'POST', `/api/accounts/${account.account.id}/deposits`, { body: '{"amountMinor":1000}', token: accessToken, headers: keyed() });
  expect(deposit.status).toBe(201);
  const browser = new Browser(bff.url);
  await browser.session();
  world = { api: started, bff, url, token: accessToken, userId: account.user.id, accountId: account.account.id, fullAccountId, browser };
}, 120_000);
afterAll(async () => {
  await world?.bff.stop();
  await world?.api.stop();
  await cluster?.destroy();
});

describe('hostile input', () => {
  it.each(probes)('%s: a clear answer, nothing applied', async (_name, row) => {
    const before = await row.unchanged?.();
    const got = await row.send();
    expect(got.status, got.body.slice(0, 300)).toBe(row.status);
    if (row.errorCode) {
      expect(got.contentType).toMatch(/^application\/problem\+json/);
      expect(JSON.parse(got.body)).toMatchObject({ status: row.status, errorCode: row.errorCode, traceId: expect.any(String) });
    }
    if (row.unchanged) expect(await row.unchanged()).toEqual(before);
  });

  it('HEAD answers the GET\'s headers and no body', async () => {
    const head = await api('HEAD', '/api/accounts');
    expect(head.body).toBe('');
    expect(head.contentType).toMatch(/^application\/json/);
  });

  it('the BFF answers /api/* no-store, under its own security headers', async () => {
    const visitor = new Browser(world.bff.url);
    await visitor.session();
    const handle = uniqueHandle('bff');
    const who = { email: `${handle}@example.com`, password: 'correct horse battery', displayName: 'Bff', handle, pin: '2468' };
    expect((await visitor.call('/bff/register', { json: who })).status).toBe(201);
    const accounts = await visitor.call('/api/accounts');
    expect(accounts.status).toBe(200);
    expect(accounts.headers.get('cache-control')).toBe('no-store');
    expect(accounts.headers.get('x-frame-options')).toBe('DENY');
    expect(accounts.headers.get('content-security-policy')).toContain("default-src 'self'");
    expect(accounts.headers.get('strict-transport-security')).toBeNull(); // plain http: no HSTS
  });

  it('answers a balance at its maximum in full', async () => {
    const reached = await api('POST', `/api/accounts/${world.fullAccountId}/deposits`, { body: '{"amountMinor":5}', headers: keyed() });
    expect(reached.status).toBe(201);
    const read = await api('GET', `/api/accounts/${world.fullAccountId}`);
    expect(read.status).toBe(200);
    expect(JSON.parse(read.body).balanceMinor).toBe(Number(MAX_BALANCE));
  });
});
