/**
 * Nothing usable at rest (adr/0045): a visitor signs in through the BFF on PostgreSQL, and
 * the session table, read as text the way a thief with a copy of it would, holds no token
 * the API issued; the tokens are there only sealed under BFF_TOKEN_KEY, and they are the
 * live ones (the API knows the refresh token's hash). A BFF on PostgreSQL without the key
 * does not start. A session that lapses unvisited is pruned with its refresh token revoked.
 */
import { createHash } from 'node:crypto';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ApiProcess } from '@tidewater/test-support/apiProcess';
import { startBff, type BffProcess } from '@tidewater/test-support/bffProcess';
import { Browser, newVisitor } from '@tidewater/test-support/browser';
import { startBackend, type Backend } from './support/backend.ts';

let backend: Backend;
let api: ApiProcess;
let bff: BffProcess;

beforeAll(async () => {
  backend = await startBackend();
  api = await backend.startApi();
  bff = await startBff({ apiUrl: api.url, env: backend.bffEnv });
});
afterAll(async () => {
  await bff?.stop();
  await api?.stop();
  await backend?.destroy();
});

async function rowsAsText(url: string, sql: string, values: unknown[] = []): Promise<string[]> {
  const client = new pg.Client(url);
  await client.connect();
  try {
    return (await client.query<{ text: string }>(sql, values)).rows.map((row) => row.text);
  } finally {
    await client.end();
  }
}

describe('the API tokens in the session table', () => {
  it('are never in the clear: only sealed, and the sealed ones are the live tokens', async (context) => {
    if (!backend.sessionDatabaseUrl) return context.skip();
    const browser = new Browser(bff.url);
    await browser.session();
    expect((await browser.call('/bff/register', { json: newVisitor('rest') })).status).toBe(201);
    expect((await browser.call('/api/accounts', { csrf: false })).status).toBe(200);

    const table = (await rowsAsText(backend.sessionDatabaseUrl, 'SELECT sid || sess::text || expire::text AS text FROM bff_session')).join('\n');
    const stored = (await backend.sessionRows()).find((row) => row.sid === browser.sessionId())!;
    const auth = backend.openAuth(stored.sess)!;
    expect(auth.refreshToken.length).toBeGreaterThan(20);
    expect(table).not.toContain(auth.refreshToken);
    expect(table).not.toContain(auth.accessToken);
    expect(table).not.toMatch(/eyJ[A-Za-z0-9_-]{10,}/); // no JWT of any kind
    expect(table).not.toMatch(/refreshToken|accessToken/);
    // What is sealed is what the API issued: it holds the refresh token's hash.
    const apiDatabase = backend.apiEnv.DATABASE_URL!;
    const hash = createHash('sha256').update(auth.refreshToken).digest('hex');
    const known = await rowsAsText(apiDatabase, 'SELECT count(*)::text AS text FROM refresh_tokens WHERE token_hash = $1 AND revoked_at IS NULL', [hash]);
    expect(known).toEqual(['1']);
  });

  it('refuses to start on PostgreSQL without BFF_TOKEN_KEY', async (context) => {
    if (!backend.sessionDatabaseUrl) return context.skip();
    const { BFF_TOKEN_KEY: _key, ...withoutKey } = backend.bffEnv;
    await expect(startBff({ apiUrl: api.url, env: withoutKey })).rejects.toThrow(/BFF_TOKEN_KEY is required/);
  });
});

describe('a session that lapses without its visitor coming back', () => {
  it('is pruned from the table with its refresh token revoked at the API', async (context) => {
    if (!backend.sessionDatabaseUrl) return context.skip();
    const quick = await startBff({
      apiUrl: api.url,
      env: { ...backend.bffEnv, SESSION_IDLE_TIMEOUT_MS: '1000', BFF_SESSION_RETENTION_MS: '1500', BFF_SESSION_PRUNE_MS: '300' },
    });
    try {
      const browser = new Browser(quick.url);
      await browser.session();
      expect((await browser.call('/bff/register', { json: newVisitor('lapse') })).status).toBe(201);
      const stored = (await backend.sessionRows()).find((row) => row.sid === browser.sessionId())!;
      const { refreshToken } = backend.openAuth(stored.sess)!;
      const hash = createHash('sha256').update(refreshToken).digest('hex');
      const revoked = () => rowsAsText(backend.apiEnv.DATABASE_URL!, 'SELECT (revoked_at IS NOT NULL)::text AS text FROM refresh_tokens WHERE token_hash = $1', [hash]);
      expect(await revoked()).toEqual(['false']);
      // Nobody comes back: the row lapses after its retention and the pruning takes it.
      const deadline = Date.now() + 10_000;
      while ((await revoked())[0] !== 'true' && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 200));
      expect(await revoked()).toEqual(['true']);
      expect((await backend.sessionRows()).some((row) => row.sid === browser.sessionId())).toBe(false);
    } finally {
      await quick.stop();
    }
  }, 30_000);
});
