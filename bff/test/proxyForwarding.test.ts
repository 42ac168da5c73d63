/**
 * What crosses the /api proxy, against a scripted API: only the headers the API reads,
 * the session's bearer token and a traceId (made when the visitor sent none); bodies
 * streamed both ways intact; the API's answers (a 503 with `applied: false` included)
 * passed on untouched; a connection the API drops answered with the BFF's own 503 after
 * exactly one attempt: the BFF never retries a visitor's request.
 */
import { createHash, randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startBff, type BffProcess } from '@tidewater/test-support/bffProcess';
import { Browser } from '@tidewater/test-support/browser';
import { sendJson, startFakeApi, type FakeApi } from './support/fakeApi.ts';

let fake: FakeApi;
let bff: BffProcess;
let browser: Browser;

beforeAll(async () => {
  fake = await startFakeApi();
  bff = await startBff({ apiUrl: fake.url });
  browser = new Browser(bff.url);
  await browser.session();
  expect(
    (
      await browser.call('/bff/login', {
        json: { email: 'ada@example.com', password: 'correct horse battery' },
      })
    ).status,
  ).toBe(200);
});
afterAll(async () => {
  await bff?.stop();
  await fake?.stop();
});

const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');
const lastRequest = (route: string) => fake.requests.filter((r) => `${r.method} ${r.path}` === route).at(-1)!;

describe('the /api proxy', () => {
  it("sends the API only what it reads, the bearer token and the trace (X-Trace-Id, the BFF's traceparent); never cookies or the CSRF token", async () => {
    fake.on('POST /api/accounts/a1/deposits', (_req, res) => sendJson(res, 201, { ok: true }));
    const answer = await browser.call('/api/accounts/a1/deposits?note=1', {
      json: { amountMinor: 100 },
      headers: {
        'idempotency-key': 'key-12345678',
        accept: 'application/json',
        'x-custom': 'nope',
        origin: bff.url,
      },
    });
    expect(answer.status).toBe(201);
    const seen = lastRequest('POST /api/accounts/a1/deposits');
    const traceId = answer.headers.get('x-trace-id');
    expect(traceId).toMatch(/^[0-9a-f]{32}$/); // a W3C trace id (adr/0018)
    expect(seen.headers).toMatchObject({
      'idempotency-key': 'key-12345678',
      'content-type': 'application/json',
      accept: 'application/json',
      'x-trace-id': traceId,
      traceparent: expect.stringMatching(new RegExp(`^00-${traceId}-[0-9a-f]{16}-01$`)),
      authorization: expect.stringMatching(/^Bearer fake-access-/),
    });
    for (const name of ['cookie', 'x-csrf-token', 'x-custom', 'origin'])
      expect(seen.headers[name], name).toBeUndefined();
    expect(seen.body).toBe('{"amountMinor":100}');
    expect(
      fake.requests.find((r) => r.path === '/api/accounts/a1/deposits' && r.method === 'POST'),
    ).toBeDefined();
  });

  it('streams large bodies both ways, intact', async () => {
    const upload = randomBytes(3 * 1024 * 1024).toString('base64');
    const download = randomBytes(4 * 1024 * 1024).toString('base64');
    fake.on('PUT /api/blob', (req, res) => {
      res.writeHead(200, { 'content-type': 'text/plain', 'x-upload-sha256': sha256(req.body) });
      res.end(download);
    });
    const stream = new ReadableStream<Uint8Array>({
      start(controller) {
        const bytes = Buffer.from(upload);
        for (let at = 0; at < bytes.length; at += 256 * 1024)
          controller.enqueue(bytes.subarray(at, at + 256 * 1024));
        controller.close();
      },
    });
    const cookie = [...browser.cookies].map(([name, value]) => `${name}=${value}`).join('; ');
    const answer = await fetch(`${bff.url}/api/blob`, {
      method: 'PUT',
      headers: { cookie, 'x-csrf-token': browser.csrfToken!, 'content-type': 'text/plain' },
      body: stream,
      duplex: 'half',
    } as RequestInit);
    expect(answer.status).toBe(200);
    expect(answer.headers.get('x-upload-sha256')).toBe(sha256(upload));
    expect(lastRequest('PUT /api/blob').headers['transfer-encoding']).toBe('chunked');
    expect(sha256(await answer.text())).toBe(sha256(download));
  });

  it("passes the API's 503 on untouched, `applied: false` and Retry-After included", async () => {
    const problem = {
      type: '/docs/problems/service-unavailable',
      title: 'The account is busy',
      status: 503,
      errorCode: 'SERVICE_UNAVAILABLE',
      retryAfterSeconds: 1,
      applied: false,
      traceId: 'from-the-api',
    };
    fake.on('POST /api/transfers/internal', (_req, res) => {
      res.writeHead(503, {
        'content-type': 'application/problem+json',
        'retry-after': '1',
        'cache-control': 'no-store',
      });
      res.end(JSON.stringify(problem));
    });
    const answer = await browser.call('/api/transfers/internal', {
      json: { amountMinor: 5 },
      headers: { 'idempotency-key': 'busy-12345678' },
    });
    expect(answer.status).toBe(503);
    expect(answer.headers.get('retry-after')).toBe('1');
    expect(answer.headers.get('cache-control')).toBe('no-store');
    expect(answer.headers.get('content-type')).toBe('application/problem+json');
    expect(answer.text).toBe(JSON.stringify(problem));
  });

  it('answers its own 503 when the API drops the connection, after exactly one attempt', async () => {
    fake.on('POST /api/transfers/external', (_req, res) => void res.socket?.destroy());
    const before = fake.count('POST /api/transfers/external');
    const answer = await browser.call('/api/transfers/external', {
      json: { amountMinor: 5 },
      headers: { 'idempotency-key': 'drop-12345678' },
    });
    expect(answer.status).toBe(503);
    expect(answer.headers.get('retry-after')).toBe('10');
    expect(answer.headers.get('cache-control')).toBe('no-store');
    expect(answer.json()).toMatchObject({ errorCode: 'SERVICE_UNAVAILABLE', retryAfterSeconds: 10 });
    expect(answer.json()).not.toHaveProperty('applied');
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(fake.count('POST /api/transfers/external') - before).toBe(1);
    expect((await browser.session()).json()).toMatchObject({ authenticated: true });
  });
});
