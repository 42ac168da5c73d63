/**
 * The session store's PostgreSQL has its backends ended, or stops, while visitors keep
 * their sessions busy (adr/0011): the BFF process lives through it, answers 200 or its own
 * 503 (never a 500, never a hang), and serves sessions again once the database is back.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import pg from 'pg';
import type { ApiProcess } from '@tidewater/test-support/apiProcess';
import { startBackend, type Backend } from './support/backend.ts';
import { startBff, type BffProcess } from '@tidewater/test-support/bffProcess';
import { Browser } from '@tidewater/test-support/browser';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
let backend: Backend;
let api: ApiProcess;
let bff: BffProcess;

beforeAll(async () => {
  backend = await startBackend();
  api = await backend.startApi();
  bff = await startBff({ apiUrl: api.url, env: backend.bffEnv });
});
afterAll(async () => {
  for (const process of [bff, api]) await process?.stop();
  await backend?.destroy();
});

/** Ends every session of the store's database but the caller's. */
async function endStoreSessions(url: string): Promise<void> {
  const admin = new pg.Client(url);
  admin.on('error', () => {});
  await admin.connect();
  try {
    await admin.query("SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = 'postgres' AND pid <> pg_backend_pid()");
  } finally {
    await admin.end().catch(() => {});
  }
}

describe('the session store killed under load', () => {
  it('keeps the BFF alive, answering 200 or 503, and serves sessions again once it is back', async (context) => {
    if (!backend.sessionDatabaseUrl) return context.skip(); // no cluster on this machine: sessions are in memory
    const url = backend.sessionDatabaseUrl;
    const statuses = new Set<number>();
    let running = true;
    const visitors = Array.from({ length: 16 }, async () => {
      const browser = new Browser(bff.url);
      while (running) {
        // Each anonymous look saves the session: a write to the store every time.
        const answer = await browser.session().catch(() => undefined);
        statuses.add(answer?.status ?? -1);
        if (answer?.status === 200) await browser.call('/bff/session/keepalive', { method: 'POST' }).then((a) => statuses.add(a.status), () => statuses.add(-1));
      }
    });
    await sleep(500);
    for (let round = 0; round < 5; round++, await sleep(200)) await endStoreSessions(url);
    running = false;
    await Promise.all(visitors);

    expect({ exitCode: bff.child.exitCode, signal: bff.child.signalCode }).toEqual({ exitCode: null, signal: null });
    expect([...statuses].filter((status) => ![200, 503].includes(status))).toEqual([]);
    const back = await new Browser(bff.url).session();
    expect(back.status).toBe(200);
  });
});
