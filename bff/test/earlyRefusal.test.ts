/**
 * The BFF passes every API refusal on, however early the API answered (issue 54 item 6,
 * adr/0064), against the real API: a JSON body nested too deep (400), a 2 MB body (413)
 * and an unknown path with a body (404) are refused by the API before it has read the
 * whole body. The visitor gets that refusal as problem+json, and the BFF logs its status,
 * never 499 "the visitor left", which is kept for a visitor who did leave. Before, the
 * BFF closed the visitor's connection and logged 499: a money send refused this way looked
 * like an unknown outcome.
 */
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ApiProcess } from '@tidewater/test-support/apiProcess';
import { logEntries, startBff, type BffProcess } from '@tidewater/test-support/bffProcess';
import { Browser, newVisitor, waitFor } from '@tidewater/test-support/browser';
import { startBackend, type Backend } from './support/backend.ts';

describe('refusals the API gives before it read the body', () => {
  let backend: Backend;
  let api: ApiProcess;
  let bff: BffProcess;
  let browser: Browser;
  let accountId: string;

  beforeAll(async () => {
    backend = await startBackend();
    api = await backend.startApi();
    bff = await startBff({ apiUrl: api.url, env: backend.bffEnv });
    browser = new Browser(bff.url);
    await browser.session();
    expect((await browser.call('/bff/register', { json: newVisitor('early') })).status).toBe(201);
    const accounts = await browser.call('/api/accounts');
    accountId = accounts.json<{ items: Array<{ id: string }> }>().items[0]!.id;
  }, 120_000);
  afterAll(async () => {
    await bff?.stop();
    await api?.stop();
    await backend?.destroy();
  });

  const deep = `{"amountMinor":1,"note":${'['.repeat(40_000)}${']'.repeat(40_000)}}`;
  const large = JSON.stringify({ amountMinor: 1, note: randomBytes(1_500_000).toString('base64') });
  const deposits = () => `/api/accounts/${accountId}/deposits`;
  const cases = [
    { name: 'a JSON body nested 40,000 deep', path: deposits, body: deep, chunked: false, type: 'application/json', status: 400 },
    { name: 'a 2 MB body', path: deposits, body: large, chunked: false, type: 'application/json', status: 413 },
    { name: 'a 2 MB body sent in chunks', path: deposits, body: large, chunked: true, type: 'application/json', status: 413 },
    { name: 'an unknown path with a 2 MB body', path: () => '/api/nowhere-at-all', body: large, chunked: false, type: 'text/plain', status: 404 },
    { name: 'an unknown path with a 2 MB body sent in chunks', path: () => '/api/nowhere-at-all', body: large, chunked: true, type: 'text/plain', status: 404 },
  ];

  /** The body as fetch sends it: whole (Content-Length), or as a stream of 64 KB chunks (chunked). */
  function bodyOf(text: string, chunked: boolean): BodyInit {
    if (!chunked) return text;
    const bytes = Buffer.from(text);
    return new ReadableStream<Uint8Array>({
      start(controller) {
        for (let at = 0; at < bytes.length; at += 64 * 1024) controller.enqueue(bytes.subarray(at, at + 64 * 1024));
        controller.close();
      },
    });
  }

  it.each(cases)('passes on the refusal of $name ($status) and logs it as such', async ({ path, body, chunked, type, status }) => {
    const traceId = randomBytes(16).toString('hex');
    const cookie = [...browser.cookies].map(([name, value]) => `${name}=${value}`).join('; ');
    const answer = await fetch(`${bff.url}${path()}`, {
      method: 'POST',
      headers: { cookie, 'x-csrf-token': browser.csrfToken!, 'content-type': type, 'idempotency-key': `early-${traceId}`, 'x-trace-id': traceId },
      body: bodyOf(body, chunked),
      duplex: 'half',
    } as RequestInit).then(
      async (response) => ({ status: response.status, type: response.headers.get('content-type'), text: await response.text() }),
      (error: Error) => ({ status: 0, type: null, text: String(error.cause ?? error) }),
    );
    expect([answer.status, answer.type], answer.text).toEqual([status, expect.stringMatching(/^application\/problem\+json/)]);
    await waitFor(() => logEntries(bff.logLines).some((e) => e.traceId === traceId && e.res !== undefined), 2_000, 'the request log line');
    const lines = logEntries(bff.logLines).filter((e) => e.traceId === traceId);
    expect(lines.map((e) => (e.res as { statusCode?: number } | undefined)?.statusCode).filter(Boolean)).toEqual([status]);
    expect(lines.map((e) => e.msg)).not.toContain('the visitor left; the API may still finish');
  });
});
