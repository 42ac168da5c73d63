/**
 * What the BFF serves besides the API: security headers on every answer; the rendered
 * docs at /docs under their own CSP (inline scripts by hash, never 'unsafe-inline'), or a
 * 503 when they are not built; the built SPA with history fallback, or a placeholder page
 * linking the docs; problem+json for unknown paths and bad bodies; the probes.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { errorCatalog, problemType } from '@tidewater/contract/errors';
import { withCodeSamples } from '../../spec/scripts/codeSamples.mjs';
import { startBff, type BffProcess } from '@tidewater/test-support/bffProcess';
import { Browser } from '@tidewater/test-support/browser';
import { startFakeApi, type FakeApi } from './support/fakeApi.ts';

const repoRoot = fileURLToPath(new URL('../../', import.meta.url));
const docsFile = join(repoRoot, 'spec/docs/index.html');
let docsSkipReason: string | undefined;

let fake: FakeApi;
let withSpa: BffProcess;
let withoutSpa: BffProcess;
let distDir: string;

beforeAll(async () => {
  if (!existsSync(docsFile) || !existsSync(join(repoRoot, 'spec/docs/openapi.samples.json')) || !existsSync(join(repoRoot, 'spec/docs/CHANGELOG.md'))) {
    const scripts =
      (
        JSON.parse(readFileSync(join(repoRoot, 'spec/package.json'), 'utf8')) as {
          scripts?: Record<string, string>;
        }
      ).scripts ?? {};
    if (scripts.docs) execFileSync('npm', ['run', 'docs', '-w', 'spec'], { cwd: repoRoot, stdio: 'ignore' });
    else
      docsSkipReason = 'the spec workspace has no `docs` script yet, so spec/docs/index.html cannot be built';
  }
  distDir = mkdtempSync(join(tmpdir(), 'tidewater-dist-'));
  mkdirSync(join(distDir, 'assets'));
  writeFileSync(
    join(distDir, 'index.html'),
    '<!doctype html><title>Tidewater SPA</title><div id="app"></div><script type="module" src="/assets/app-1a2b3c.js"></script>',
  );
  writeFileSync(join(distDir, 'assets/app-1a2b3c.js'), 'console.log("tidewater");');
  fake = await startFakeApi();
  withSpa = await startBff({ apiUrl: fake.url, env: { BFF_WEB_DIST_DIR: distDir } });
  withoutSpa = await startBff({
    apiUrl: fake.url,
    env: { BFF_WEB_DIST_DIR: join(distDir, 'missing'), BFF_DOCS_FILE: join(distDir, 'missing.html') },
  });
}, 180_000);
afterAll(async () => {
  await Promise.all([withSpa?.stop(), withoutSpa?.stop()]);
  await fake?.stop();
  if (distDir) rmSync(distDir, { recursive: true, force: true });
});

/** CSP directives as a map. */
function cspOf(headers: Headers): Map<string, string> {
  const policy = headers.get('content-security-policy') ?? '';
  return new Map(
    policy
      .split(';')
      .map((part) => part.trim())
      .filter(Boolean)
      .map(
        (part) =>
          [part.split(/\s+/)[0]!, part.slice(part.split(/\s+/)[0]!.length).trim()] as [string, string],
      ),
  );
}

describe('security headers', () => {
  it.each(['/bff/session', '/bff/health', '/', '/accounts/123', '/api/accounts', '/nothing-here.json'])(
    'on %s',
    async (path) => {
      const answer = await fetch(`${withSpa.url}${path}`, {
        headers: { accept: path.endsWith('.json') ? 'application/json' : 'text/html' },
      });
      const csp = cspOf(answer.headers);
      expect(csp.get('default-src')).toBe("'self'");
      expect(csp.get('script-src')).toBe("'self'");
      expect(csp.get('style-src')).toBe("'self'");
      expect(csp.get('frame-ancestors')).toBe("'none'");
      expect(csp.get('object-src')).toBe("'none'");
      expect(csp.get('base-uri')).toBe("'none'");
      expect(answer.headers.get('referrer-policy')).toBe('no-referrer');
      expect(answer.headers.get('x-content-type-options')).toBe('nosniff');
      expect(answer.headers.get('x-frame-options')).toBe('DENY');
      expect(answer.headers.get('x-powered-by')).toBeNull();
      expect(answer.headers.get('x-trace-id')).toBeTruthy();
    },
  );
});

describe('/docs', () => {
  it('serves the rendered docs under their own CSP: inline scripts by hash, nothing else relaxed', async (context) => {
    if (docsSkipReason) context.skip(docsSkipReason);
    const answer = await fetch(`${withSpa.url}/docs`);
    expect(answer.status).toBe(200);
    expect(answer.headers.get('content-type')).toMatch(/^text\/html/);
    const html = await answer.text();
    expect(html).toContain('<title>');
    const csp = cspOf(answer.headers);
    expect(csp.get('script-src')).toMatch(/^'self'( 'sha256-[A-Za-z0-9+/]+=*')+$/);
    expect(csp.get('script-src')).not.toContain('unsafe');
    expect(csp.get('frame-ancestors')).toBe("'none'");
    expect(csp.get('object-src')).toBe("'none'");
    expect(csp.get('base-uri')).toBe("'none'");
    expect(answer.headers.get('referrer-policy')).toBe('no-referrer');
  });

  it('serves the docs at every link of their own (a link opened in a new tab), with telemetry off and no CDN', async (context) => {
    if (docsSkipReason) context.skip(docsSkipReason);
    const answer = await fetch(`${withSpa.url}/docs/section/idempotency`);
    expect([answer.status, answer.headers.get('content-type')]).toEqual([200, 'text/html; charset=utf-8']);
    const html = await answer.text();
    expect(html).toContain('href="/docs/section/idempotency"');
    expect(html).not.toMatch(/href="\/(?!docs\/)/);
    expect(html).toContain('"disableTelemetry":true');
    expect(html).not.toContain('https://cdn.redoc.ly/redoc/logo');
  });

  it('serves the document the docs render at /docs/openapi.yaml, for download, with its code samples', async (context) => {
    if (docsSkipReason) context.skip(docsSkipReason);
    const answer = await fetch(`${withSpa.url}/docs/openapi.yaml`);
    expect(answer.status).toBe(200);
    expect(answer.headers.get('content-type')).toMatch(/^application\/yaml/);
    const served = parse(await answer.text());
    expect(served).toEqual(withCodeSamples(parse(readFileSync(join(repoRoot, 'spec/openapi.yaml'), 'utf8'))));
    expect(served.paths['/api/accounts/{accountId}/deposits'].post['x-codeSamples'].map((sample: { lang: string }) => sample.lang)).toEqual(['Shell', 'TypeScript']);
  });

  it('serves the changelog and the client tarball the introduction names', async (context) => {
    if (docsSkipReason) context.skip(docsSkipReason);
    const changelog = await fetch(`${withSpa.url}/docs/CHANGELOG.md`);
    expect([changelog.status, changelog.headers.get('content-type')]).toEqual([200, 'text/markdown; charset=utf-8']);
    expect(await changelog.text()).toBe(readFileSync(join(repoRoot, 'CHANGELOG.md'), 'utf8'));
    const { version } = parse(readFileSync(join(repoRoot, 'spec/openapi.yaml'), 'utf8')).info;
    const tarball = await fetch(`${withSpa.url}/docs/client/tidewater-client-${version}.tgz`);
    expect([tarball.status, tarball.headers.get('content-type')]).toEqual([200, 'application/gzip']);
    expect(Buffer.from(await tarball.arrayBuffer()).subarray(0, 2)).toEqual(Buffer.from([0x1f, 0x8b]));
  });

  it.each(['/docs/CHANGELOG', '/docs/changelog.md', '/docs/index.html', '/docs/nothing/here', '/docs/client/tidewater-client-0.0.0.tgz', '/docs/client/..%2Findex.html', '/docs/problems/x/y'])(
    'answers %s, a path the docs do not have, 404 problem+json',
    async (path) => {
      const answer = await fetch(`${withSpa.url}${path}`, { headers: { accept: 'text/html' } });
      expect([answer.status, answer.headers.get('content-type')]).toEqual([404, 'application/problem+json; charset=utf-8']);
      expect((await answer.json()).errorCode).toBe('NOT_FOUND');
    },
  );

  it('serves the error reference and a page for every code a problem type names; an unknown code is 404', async () => {
    const reference = await fetch(`${withSpa.url}/docs/problems`);
    expect(reference.status).toBe(200);
    const html = await reference.text();
    for (const [code, { status }] of Object.entries(errorCatalog)) {
      const type = problemType(code as keyof typeof errorCatalog);
      expect(html).toContain(`<a href="${type}"><code>${code}</code></a></td><td>${status}</td>`);
      const page = await fetch(new URL(type, withSpa.url));
      expect([page.status, page.headers.get('content-type')]).toEqual([200, 'text/html; charset=utf-8']);
      expect(await page.text()).toContain(`<code>${code}</code>`);
    }
    const unknown = await fetch(`${withSpa.url}/docs/problems/no-such-code`);
    expect([unknown.status, (await unknown.json()).errorCode]).toEqual([404, 'NOT_FOUND']);
  });

  it('answers 503 problem+json saying the docs are not built when the file is missing', async () => {
    const answer = await fetch(`${withoutSpa.url}/docs`);
    expect(answer.status).toBe(503);
    expect(answer.headers.get('content-type')).toMatch(/^application\/problem\+json/);
    expect(answer.headers.get('retry-after')).toBe('10');
    expect(await answer.json()).toMatchObject({
      errorCode: 'SERVICE_UNAVAILABLE',
      detail: expect.stringContaining('npm run docs -w spec'),
    });
  });
});

describe('the SPA', () => {
  it('serves index.html for the app and its history routes, assets as files', async () => {
    for (const path of ['/', '/accounts/123', '/sign-in?next=%2Faccounts']) {
      const page = await fetch(`${withSpa.url}${path}`, { headers: { accept: 'text/html' } });
      expect(page.status, path).toBe(200);
      expect(await page.text(), path).toContain('<title>Tidewater SPA</title>');
      expect(page.headers.get('cache-control'), path).toBe('no-cache');
    }
    const asset = await fetch(`${withSpa.url}/assets/app-1a2b3c.js`);
    expect(asset.status).toBe(200);
    expect(asset.headers.get('content-type')).toMatch(/javascript/);
    expect(asset.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    const missing = await fetch(`${withSpa.url}/assets/gone-000000.js`, { headers: { accept: '*/*' } });
    expect(missing.status).toBe(404);
  });

  it('serves a placeholder linking /docs when the SPA is not built', async () => {
    const page = await fetch(`${withoutSpa.url}/accounts`, { headers: { accept: 'text/html' } });
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toMatch(/^text\/html/);
    const html = await page.text();
    expect(html).toMatch(/not built/i);
    expect(html).toContain('href="/docs"');
  });
});

describe('problems and probes', () => {
  it('answers unknown paths and bad bodies with problem+json', async () => {
    const browser = new Browser(withSpa.url);
    await browser.session();
    const cases: Array<[string, Parameters<Browser['call']>[1], number, string]> = [
      ['/bff/nothing', {}, 404, 'NOT_FOUND'],
      ['/bff/nothing', { method: 'POST' }, 404, 'NOT_FOUND'],
      ['/somewhere', { method: 'POST' }, 404, 'NOT_FOUND'],
      [
        '/bff/login',
        { method: 'POST', body: '{"email":', headers: { 'content-type': 'application/json' } },
        400,
        'MALFORMED_JSON',
      ],
      [
        '/bff/login',
        { method: 'POST', body: 'email=a', headers: { 'content-type': 'text/plain' } },
        415,
        'UNSUPPORTED_MEDIA_TYPE',
      ],
      [
        '/bff/login',
        { method: 'POST', body: '[1,2]', headers: { 'content-type': 'application/json' } },
        400,
        'VALIDATION_FAILED',
      ],
      [
        '/bff/register',
        {
          method: 'POST',
          body: JSON.stringify({ pad: 'x'.repeat(200_000) }),
          headers: { 'content-type': 'application/json' },
        },
        413,
        'PAYLOAD_TOO_LARGE',
      ],
    ];
    for (const [path, options, status, errorCode] of cases) {
      const answer = await browser.call(path, options);
      expect(answer.status, `${options?.method ?? 'GET'} ${path}`).toBe(status);
      expect(answer.headers.get('content-type')).toMatch(/^application\/problem\+json/);
      expect(answer.json()).toMatchObject({ status, errorCode, traceId: answer.headers.get('x-trace-id') });
    }
  });

  it('answers the probes', async () => {
    const health = await fetch(`${withSpa.url}/bff/health`);
    expect(health.status).toBe(200);
    expect(await health.json()).toEqual({ status: 'ok' });
    expect(health.headers.getSetCookie()).toEqual([]);
    const ready = await fetch(`${withSpa.url}/bff/ready`);
    expect(ready.status).toBe(200);
    expect(await ready.json()).toEqual({ status: 'ready' });
    fake.on('GET /api/ready', (_req, res) => void res.writeHead(503).end());
    const notReady = await fetch(`${withSpa.url}/bff/ready`);
    expect(notReady.status).toBe(503);
    expect(await notReady.json()).toMatchObject({
      errorCode: 'SERVICE_UNAVAILABLE',
      detail: 'Not ready: the API is not ready.',
    });
  });
});
