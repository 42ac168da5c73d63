/**
 * Optional OpenTelemetry export (adr/0018): with OTEL_EXPORTER_OTLP_ENDPOINT set, the real
 * API and the real BFF send their spans over OTLP/HTTP (JSON) to `/v1/traces`; here a tiny
 * HTTP server in the test is that endpoint. One request through the BFF is one trace: the
 * BFF's span is the child of the visitor's traceparent, the API's the child of the BFF's,
 * and the trace id is the one both logs and the X-Trace-Id show.
 */
import { randomBytes } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ApiProcess } from '@tidewater/test-support/apiProcess';
import { logEntries, startBff, type BffProcess } from '@tidewater/test-support/bffProcess';
import { Browser, newVisitor, waitFor } from '@tidewater/test-support/browser';
import { startBackend, type Backend } from './support/backend.ts';

/** One span as OTLP/JSON carries it (ids in hex), with its service. */
interface ExportedSpan {
  service: string;
  traceId: string;
  spanId: string;
  parentSpanId?: string;
  name: string;
  kind: number;
  attributes: Record<string, unknown>;
}

interface OtlpValue {
  stringValue?: string;
  intValue?: string | number;
}
interface OtlpAttribute {
  key: string;
  value: OtlpValue;
}
interface OtlpRequest {
  resourceSpans?: Array<{
    resource?: { attributes?: OtlpAttribute[] };
    scopeSpans?: Array<{ spans?: Array<{ traceId: string; spanId: string; parentSpanId?: string; name: string; kind: number; attributes?: OtlpAttribute[] }> }>;
  }>;
}

const valueOf = (value: OtlpValue) => value.stringValue ?? (value.intValue !== undefined ? Number(value.intValue) : undefined);
const attributesOf = (list: OtlpAttribute[] = []) => Object.fromEntries(list.map(({ key, value }) => [key, valueOf(value)]));

let collector: Server;
const posts: Array<{ path: string; contentType: string }> = [];
const spans: ExportedSpan[] = [];
let backend: Backend;
let api: ApiProcess;
let bff: BffProcess;

beforeAll(async () => {
  collector = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      posts.push({ path: req.url ?? '', contentType: String(req.headers['content-type']) });
      const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as OtlpRequest;
      for (const resourceSpans of body.resourceSpans ?? []) {
        const service = String(attributesOf(resourceSpans.resource?.attributes)['service.name']);
        for (const scope of resourceSpans.scopeSpans ?? [])
          for (const span of scope.spans ?? [])
            spans.push({ service, traceId: span.traceId, spanId: span.spanId, parentSpanId: span.parentSpanId || undefined, name: span.name, kind: span.kind, attributes: attributesOf(span.attributes) });
      }
      res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
    });
  });
  await new Promise<void>((resolve) => collector.listen(0, '127.0.0.1', resolve));
  const otel = {
    OTEL_EXPORTER_OTLP_ENDPOINT: `http://127.0.0.1:${(collector.address() as AddressInfo).port}`,
    OTEL_BSP_SCHEDULE_DELAY: '200',
  };
  backend = await startBackend();
  api = await backend.startApi(otel);
  bff = await startBff({ apiUrl: api.url, env: { ...backend.bffEnv, ...otel } });
});
afterAll(async () => {
  await bff?.stop();
  await api?.stop();
  await backend?.destroy();
  await new Promise((resolve) => collector?.close(resolve));
});

describe('OTLP export', () => {
  it("sends the BFF's and the API's spans of one request, as one trace, to /v1/traces", async () => {
    const browser = new Browser(bff.url);
    await browser.session();
    expect((await browser.call('/bff/register', { json: newVisitor('otel') })).status).toBe(201);
    const traceId = randomBytes(16).toString('hex');
    const visitorSpan = randomBytes(8).toString('hex');
    const me = await browser.call('/api/me', { headers: { traceparent: `00-${traceId}-${visitorSpan}-01` } });
    expect(me.status).toBe(200);
    expect(me.headers.get('x-trace-id')).toBe(traceId);

    const ofTrace = () => spans.filter((span) => span.traceId === traceId);
    await waitFor(() => ofTrace().length >= 2, 15_000, 'the spans of both tiers at the collector');
    expect(posts.every((post) => post.path === '/v1/traces' && post.contentType.startsWith('application/json'))).toBe(true);

    for (const tier of [bff, api]) expect(tier.logLines.some((line) => line.includes('exporting spans (OTLP/HTTP)'))).toBe(true);

    const bffSpan = ofTrace().find((span) => span.service === 'tidewater-bff');
    const apiSpan = ofTrace().find((span) => span.service === 'tidewater-api');
    expect(bffSpan, JSON.stringify(ofTrace())).toBeDefined();
    expect(apiSpan, JSON.stringify(ofTrace())).toBeDefined();
    expect(bffSpan!.parentSpanId).toBe(visitorSpan);
    expect(apiSpan!.parentSpanId).toBe(bffSpan!.spanId);
    for (const span of [bffSpan!, apiSpan!]) {
      expect(span.kind).toBe(2); // SPAN_KIND_SERVER
      expect(span.attributes).toMatchObject({ 'http.request.method': 'GET', 'url.path': '/api/me', 'http.response.status_code': 200 });
    }
    // The ids the spans carry are the ones the logs carry.
    const logged = (lines: readonly string[]) => logEntries(lines).filter((line) => line.traceId === traceId);
    expect(logged(bff.logLines).length).toBeGreaterThan(0);
    expect(logged(api.logLines).length).toBeGreaterThan(0);
  });

  it('a request with no traceparent is a trace of its own, under the X-Trace-Id it answered', async () => {
    const answer = await new Browser(bff.url).call('/bff/health');
    const traceId = answer.headers.get('x-trace-id')!;
    await waitFor(() => spans.some((span) => span.traceId === traceId), 15_000, 'the span of /bff/health');
    const span = spans.find((candidate) => candidate.traceId === traceId)!;
    expect(span).toMatchObject({ service: 'tidewater-bff', parentSpanId: undefined });
  });
});
