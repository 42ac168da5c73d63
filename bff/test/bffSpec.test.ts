/**
 * spec/bff.yaml and the BFF agree: the document passes the project's lint rules
 * (spec/redocly.yaml: 503/499 on every operation, problem+json, examples everywhere);
 * the app mounts exactly the /bff routes the document declares, no more, no fewer; and
 * a live BFF answers each operation with a status the document declares for it.
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp } from '../src/app.ts';
import { loadConfig } from '../src/config.ts';
import { openSessionStore } from '../src/session/sessionStore.ts';
import { createApiClient } from '../src/upstream/apiClient.ts';
import { createRenewals } from '../src/upstream/renewals.ts';
import { refreshWithApi } from '../src/upstream/tokenCalls.ts';
import { Browser } from '@tidewater/test-support/browser';
import { fakeUser, sendJson, startFakeApi, type FakeApi } from './support/fakeApi.ts';

const repoRoot = fileURLToPath(new URL('../../', import.meta.url));
const redocly = join(repoRoot, 'node_modules/@redocly/cli/bin/cli.js');

interface Operation {
  operationId: string;
  responses: Record<string, unknown>;
}
type Document = { paths: Record<string, Record<string, Operation>> };

async function runRedocly(args: string[]): Promise<string> {
  return promisify(execFile)(process.execPath, [redocly, ...args], { cwd: repoRoot }).then(
    (result) => result.stdout,
    (error: { stdout?: string }) => error.stdout ?? '',
  );
}

let document: Document;
let fake: FakeApi;
let server: ReturnType<ReturnType<typeof createApp>['listen']>;
let origin: string;
let app: ReturnType<typeof createApp>;
let closeDeps: () => Promise<void>;

beforeAll(async () => {
  const dir = mkdtempSync(join(tmpdir(), 'tidewater-bff-spec-'));
  await runRedocly(['bundle', 'spec/bff.yaml', '--ext', 'json', '--output', join(dir, 'bff.json')]);
  document = JSON.parse(readFileSync(join(dir, 'bff.json'), 'utf8')) as Document;
  rmSync(dir, { recursive: true, force: true });

  fake = await startFakeApi();
  const config = loadConfig({ API_URL: fake.url, LOG_LEVEL: 'silent' });
  const logger = pino({ level: 'silent' });
  const sessionStore = await openSessionStore(config, logger);
  const api = createApiClient(config.apiUrl);
  app = createApp({
    config,
    logger,
    api,
    sessionStore,
    renewals: createRenewals(refreshWithApi(api, config.renewalTimeoutMs), config.renewalReuseMs),
  });
  server = app.listen(0, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  closeDeps = async () => {
    await api.close();
    await sessionStore.close();
  };
});
afterAll(async () => {
  server?.closeAllConnections();
  await new Promise((resolve) => server?.close(resolve));
  await closeDeps?.();
  await fake?.stop();
});

/** Every `METHOD /path` the document declares. */
function declared(): string[] {
  return Object.entries(document.paths).flatMap(([path, item]) =>
    Object.keys(item).map((method) => `${method.toUpperCase()} ${path}`),
  );
}

/** The statuses declared for `METHOD /path`. */
function statusesOf(route: string): string[] {
  const [method, path] = route.split(' ') as [string, string];
  return Object.keys(document.paths[path]?.[method.toLowerCase()]?.responses ?? {});
}

/** Every route the app mounts (Express 5 router layers, sub-routers included). */
function mounted(): string[] {
  type Layer = { route?: { path: string; methods: Record<string, boolean> }; handle?: { stack?: Layer[] } };
  const walk = (stack: Layer[]): string[] =>
    stack.flatMap((layer) =>
      layer.route
        ? Object.keys(layer.route.methods)
            .filter((m) => m !== '_all')
            .map((m) => `${m.toUpperCase()} ${layer.route!.path}`)
        : walk(layer.handle?.stack ?? []),
    );
  return walk((app as unknown as { router: { stack: Layer[] } }).router.stack);
}

describe('spec/bff.yaml', () => {
  it('passes `redocly lint --config spec/redocly.yaml` with no errors and no warnings', async () => {
    const stdout = await runRedocly([
      'lint',
      'spec/bff.yaml',
      '--config',
      'spec/redocly.yaml',
      '--format',
      'json',
    ]);
    const report = JSON.parse(stdout) as {
      totals: { errors: number; warnings: number };
      problems: Array<{ ruleId: string; message: string }>;
    };
    expect(report.problems.map((p) => `${p.ruleId}: ${p.message}`)).toEqual([]);
    expect(report.totals).toMatchObject({ errors: 0, warnings: 0 });
  });

  it('declares exactly the /bff routes the app mounts', () => {
    const bffRoutes = mounted().filter((route) => route.split(' ')[1]!.startsWith('/bff'));
    expect(new Set(bffRoutes)).toEqual(new Set(declared()));
  });

  it('matches what a live BFF answers, operation by operation', async () => {
    fake.on('POST /api/auth/register', (_req, res) =>
      sendJson(res, 201, {
        user: fakeUser,
        account: {
          id: '3f1c2a9e-6b7d-4c1e-9a3b-2f5e8d7c6b1a',
          name: 'Everyday',
          currency: 'EUR',
          balanceMinor: 0,
          status: 'open',
          isPrimary: true,
          openedAt: '2026-11-29T10:00:00.000Z',
          closedAt: null,
          idempotencyKey: null,
        },
      }),
    );
    const browser = new Browser(origin);
    const calls: Array<[string, () => Promise<{ status: number; headers: Headers; text: string }>, number]> =
      [
        ['GET /bff/session', () => browser.session(), 200],
        [
          'POST /bff/session/keepalive',
          () => browser.call('/bff/session/keepalive', { method: 'POST', csrf: false }),
          403,
        ],
        [
          'POST /bff/session/keepalive',
          () => browser.call('/bff/session/keepalive', { method: 'POST' }),
          200,
        ],
        [
          'POST /bff/register',
          () =>
            browser.call('/bff/register', {
              json: {
                email: 'ada@example.com',
                password: 'correct horse battery',
                displayName: 'Ada',
                handle: 'ada_l',
                pin: '4821',
              },
            }),
          201,
        ],
        [
          'POST /bff/login',
          () =>
            browser.call('/bff/login', {
              json: { email: 'ada@example.com', password: 'correct horse battery' },
            }),
          200,
        ],
        [
          'POST /bff/login',
          () => browser.call('/bff/login', { body: 'x', headers: { 'content-type': 'text/plain' } }),
          415,
        ],
        ['POST /bff/logout', () => browser.call('/bff/logout', { method: 'POST' }), 204],
        ['GET /bff/health', () => browser.call('/bff/health'), 200],
        ['GET /bff/health', () => browser.call('/bff/health?verbose=1'), 400],
        ['GET /bff/ready', () => browser.call('/bff/ready'), 200],
      ];
    for (const [route, call, expected] of calls) {
      const answer = await call();
      expect(answer.status, `${route}: ${answer.text}`).toBe(expected);
      expect(statusesOf(route), route).toContain(String(expected));
      if (expected >= 400)
        expect(answer.headers.get('content-type'), route).toMatch(/^application\/problem\+json/);
    }
  });
});
