/**
 * One trace across the tiers (adr/0018), on the real BFF in front of the real API (and a
 * tap between them that records what the BFF sent): a visitor's W3C `traceparent` names
 * the trace id that every log line of the BFF and of the API for that request carries
 * (`traceId`) and that the answer's X-Trace-Id shows; without one the BFF starts a trace;
 * an invalid one is ignored and replaced, and the request still succeeds. The BFF sends the
 * API its own span as the parent, never the visitor's header as it came.
 */
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ApiProcess } from '@tidewater/test-support/apiProcess';
import { logEntries, startBff, type BffProcess } from '@tidewater/test-support/bffProcess';
import { Browser, newVisitor, sleep, waitFor, type Answer } from '@tidewater/test-support/browser';
import { startBackend, type Backend } from './support/backend.ts';
import { startRecordingTap, type RecordingTap } from './support/recordingTap.ts';

const w3cTraceparent = /^00-([0-9a-f]{32})-([0-9a-f]{16})-0[01]$/;

let backend: Backend;
let api: ApiProcess;
let tap: RecordingTap;
let bff: BffProcess;
let browser: Browser;
const visitor = newVisitor('trace');

beforeAll(async () => {
  backend = await startBackend();
  api = await backend.startApi();
  tap = await startRecordingTap(api.url);
  bff = await startBff({ apiUrl: tap.url, env: backend.bffEnv });
  browser = new Browser(bff.url);
  await browser.session();
  const registered = await browser.call('/bff/register', { json: visitor });
  expect(registered.status, registered.text).toBe(201);
});
afterAll(async () => {
  await bff?.stop();
  await tap?.stop();
  await api?.stop();
  await backend?.destroy();
});

/** What one request through the BFF left behind: the answer, every new log line of each tier, what reached the API. */
interface Traced {
  answer: Answer;
  traceId: string;
  bffLines: Array<Record<string, unknown>>;
  apiLines: Array<Record<string, unknown>>;
  sentToApi: Array<{ path: string; headers: Record<string, string | string[] | undefined> }>;
}

/** Resolves once neither log has grown for 300 ms: the lines of earlier requests are in (pino writes them after the answer). */
async function logsQuiet(): Promise<void> {
  let seen = -1;
  while (seen !== bff.logLines.length + api.logLines.length) {
    seen = bff.logLines.length + api.logLines.length;
    await sleep(300);
  }
}

/** Sends one request and waits until both tiers have logged its completion. */
async function traced(path: string, options: Parameters<Browser['call']>[1], apiPaths: string[]): Promise<Traced> {
  await logsQuiet();
  const bffFrom = bff.logLines.length;
  const apiFrom = api.logLines.length;
  const tapFrom = tap.answers.length;
  const answer = await browser.call(path, options);
  const traceId = answer.headers.get('x-trace-id') ?? '';
  const completions = (lines: Array<Record<string, unknown>>) => lines.filter((line) => line.responseTime !== undefined);
  await waitFor(
    () =>
      completions(logEntries(bff.logLines.slice(bffFrom))).length >= 1 &&
      completions(logEntries(api.logLines.slice(apiFrom))).length >= apiPaths.length,
    10_000,
    `both tiers logging ${path}`,
  );
  await logsQuiet();
  // After a sign-in the helper reads the rotated CSRF token (adr/0043): a request, and a trace, of its own.
  const ownLines = (line: Record<string, unknown>) => path === '/bff/session' || (line.req as { url?: string } | undefined)?.url !== '/bff/session';
  return {
    answer,
    traceId,
    bffLines: logEntries(bff.logLines.slice(bffFrom)).filter(ownLines),
    apiLines: logEntries(api.logLines.slice(apiFrom)),
    sentToApi: tap.answers.slice(tapFrom).map(({ path: sent, requestHeaders }) => ({ path: sent, headers: requestHeaders })),
  };
}

/** Every line each tier logged for the request carries `traceId`; the API logged each of `apiPaths`. */
function expectOneTrace(result: Traced, traceId: string, apiPaths: string[]): void {
  expect(result.traceId).toBe(traceId);
  expect(result.bffLines.length).toBeGreaterThan(0);
  for (const line of result.bffLines) expect(line.traceId, JSON.stringify(line)).toBe(traceId);
  for (const line of result.apiLines) expect(line.traceId, JSON.stringify(line)).toBe(traceId);
  const apiUrls = result.apiLines.filter((line) => line.responseTime !== undefined).map((line) => (line.req as { url: string }).url);
  expect(apiUrls.sort()).toEqual([...apiPaths].sort());
  // The BFF sent each call with a traceparent of its own span under the same trace id.
  expect(result.sentToApi.map((sent) => sent.path).sort()).toEqual([...apiPaths].sort());
  for (const sent of result.sentToApi) {
    expect(sent.headers['x-trace-id']).toBe(traceId);
    const parent = w3cTraceparent.exec(String(sent.headers.traceparent));
    expect(parent, String(sent.headers.traceparent)).not.toBeNull();
    expect(parent![1]).toBe(traceId);
    expect(sent.headers.tracestate).toBeUndefined();
  }
}

describe('one trace id in the BFF and the API', () => {
  it("takes the visitor's traceparent: the same trace id in every line of both tiers, the BFF's own span sent on", async () => {
    const traceId = randomBytes(16).toString('hex');
    const visitorSpan = randomBytes(8).toString('hex');
    const result = await traced('/api/me', { headers: { traceparent: `00-${traceId}-${visitorSpan}-01`, tracestate: 'vendor=visitor' } }, ['/api/me']);
    expect(result.answer.status, result.answer.text).toBe(200);
    expectOneTrace(result, traceId, ['/api/me']);
    const sentSpan = w3cTraceparent.exec(String(result.sentToApi[0]!.headers.traceparent))![2];
    expect(sentSpan).not.toBe(visitorSpan); // the BFF's span, child of the visitor's
  });

  it("starts a trace when the visitor sends none, and the API's lines carry it", async () => {
    const result = await traced('/api/me', {}, ['/api/me']);
    expect(result.answer.status).toBe(200);
    expect(result.traceId).toMatch(/^[0-9a-f]{32}$/);
    expectOneTrace(result, result.traceId, ['/api/me']);
  });

  it.each([
    ['garbage', 'not-a-traceparent'],
    ['an all-zero trace id', `00-${'0'.repeat(32)}-b7ad6b7169203331-01`],
    ['uppercase hex', `00-${'AB'.repeat(16)}-b7ad6b7169203331-01`],
    ['version ff', `ff-${'ab'.repeat(16)}-b7ad6b7169203331-01`],
    ['a fifth field on version 00', `00-${'ab'.repeat(16)}-b7ad6b7169203331-01-x`],
    ['8 KiB of it', `00-${'ab'.repeat(16)}-b7ad6b7169203331-01-${'a'.repeat(8_000)}`],
  ])('replaces an invalid traceparent (%s) with a trace of its own, and answers 2xx', async (_what, traceparent) => {
    const result = await traced('/api/me', { headers: { traceparent } }, ['/api/me']);
    expect(result.answer.status, result.answer.text).toBe(200);
    expect(result.traceId).toMatch(/^[0-9a-f]{32}$/);
    expect(result.traceId).not.toBe('ab'.repeat(16));
    expectOneTrace(result, result.traceId, ['/api/me']);
    expect(result.sentToApi[0]!.headers.traceparent).not.toBe(traceparent);
  });

  it("carries the trace on the BFF's own calls too (sign-in: the token, then the profile)", async () => {
    const traceId = randomBytes(16).toString('hex');
    const signIn = new Browser(bff.url);
    await signIn.session();
    browser = signIn;
    const result = await traced(
      '/bff/login',
      { json: { email: visitor.email, password: visitor.password }, headers: { traceparent: `00-${traceId}-${randomBytes(8).toString('hex')}-01` } },
      ['/api/auth/token', '/api/me'],
    );
    expect(result.answer.status, result.answer.text).toBe(200);
    expectOneTrace(result, traceId, ['/api/auth/token', '/api/me']);
  });

  it.skipIf(process.env.OTEL_EXPORTER_OTLP_ENDPOINT)('exports nothing when OTEL_EXPORTER_OTLP_ENDPOINT is unset (the SDK is not loaded: lint:layers rule otel-loaded-on-demand)', () => {
    for (const tier of [bff, api]) expect(tier.logLines.some((line) => line.includes('exporting spans'))).toBe(false);
  });
});
