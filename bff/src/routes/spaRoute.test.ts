/**
 * One variable on the BFF changes the SPA's end of the timeout chain: the page the BFF
 * serves carries the numbers it resolved (SPA_ABORT_MS and the others), and the SPA reads
 * them there (web-vue/src/api/timings.test.ts).
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import express from 'express';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readServedTimings } from '@tidewater/contract/servedTimings';
import { chainDefaults } from '@tidewater/contract/timeoutChain';
import { loadConfig } from '../config.ts';
import type { BffDeps } from '../deps.ts';
import { spaRoute } from './spaRoute.ts';

let distDir: string;

beforeAll(() => {
  distDir = mkdtempSync(join(tmpdir(), 'tidewater-spa-'));
  writeFileSync(
    join(distDir, 'index.html'),
    '<!doctype html><html><head><title>Tidewater SPA</title><script type="module" src="/assets/app.js"></script></head><body><div id="app"></div></body></html>',
  );
});
afterAll(() => rmSync(distDir, { recursive: true, force: true }));

/** The page at `path` from a spaRoute over `env`, and the timings a browser would read in it. */
async function servedPage(env: Record<string, string>, path: string) {
  const config = loadConfig({ ...env, BFF_WEB_DIST_DIR: distDir });
  const app = express().use(spaRoute({ config } as BffDeps));
  const server = app.listen(0, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
  try {
    const response = await fetch(`http://127.0.0.1:${(server.address() as AddressInfo).port}${path}`, {
      headers: { accept: 'text/html' },
    });
    const html = await response.text();
    const block = /<script type="application\/json" id="([^"]+)">([^<]*)<\/script>/.exec(html);
    const timings = readServedTimings({
      getElementById: (id) => (block && block[1] === id ? { textContent: block[2] ?? null } : null),
    });
    return { response, html, timings };
  } finally {
    server.close();
  }
}

describe('the SPA page', () => {
  it.each(['/', '/accounts/123', '/index.html'])('carries SPA_ABORT_MS as this BFF resolved it (%s)', async (path) => {
    const { response, html, timings } = await servedPage({ SPA_ABORT_MS: '70000', SPA_READ_BUDGET_MS: '130000' }, path);
    expect(response.status).toBe(200);
    expect(response.headers.get('cache-control')).toBe('no-cache');
    expect(html).toContain('<title>Tidewater SPA</title>');
    expect(html.indexOf('id="tidewater-timings"')).toBeLessThan(html.indexOf('<script type="module"'));
    expect(timings).toEqual({ spaAbortMs: 70_000, spaReadBudgetMs: 130_000, spaSessionCheckMs: chainDefaults.spaSessionCheckMs });
  });

  it('carries the defaults when nothing is set', async () => {
    const { timings } = await servedPage({}, '/');
    expect(timings).toEqual({
      spaAbortMs: chainDefaults.spaAbortMs,
      spaReadBudgetMs: chainDefaults.spaReadBudgetMs,
      spaSessionCheckMs: chainDefaults.spaSessionCheckMs,
    });
  });

  it('refuses an SPA abort the BFF cannot answer before', () => {
    expect(() => loadConfig({ SPA_ABORT_MS: '60000' })).toThrow(/below the SPA's abort \(60000 ms\)/);
  });
});
