// @vitest-environment node
import { describe, expect, it } from 'vitest';
import { configureRequests } from './instance.ts';
import { createResilientFetch } from './resilientFetch.ts';
import { fakeWorld, okResponse, problemResponse } from './fakeRequestEnvironment.ts';

/** W3C traceparent, version 00: trace id (16 bytes), span id (8 bytes), flags; ids never all zero. */
const traceparentShape = /^00-(?!0{32})([0-9a-f]{32})-(?!0{16})([0-9a-f]{16})-01$/;

function traceOf(request: Request): { traceId: string; spanId: string } {
  const header = request.headers.get('traceparent') ?? '';
  const match = traceparentShape.exec(header);
  if (!match) throw new Error(`not a valid traceparent: ${JSON.stringify(header)}`);
  return { traceId: match[1]!, spanId: match[2]! };
}

describe("the SPA's requests carry a W3C traceparent", () => {
  it('on every request of the clients, reads and writes, to the API and the BFF', async () => {
    const world = fakeWorld([okResponse({ authenticated: false }), okResponse([]), okResponse({ authenticated: false }), okResponse({})]);
    const clients = configureRequests(world.env, 'http://bank.test');
    await clients.bff.getSession();
    await clients.api.GET('/api/accounts');
    await clients.bff.keepalive();
    await clients.api.POST('/api/accounts', { body: { name: 'Savings' }, params: { header: { 'Idempotency-Key': 'key-12345678' } } });
    expect(world.sent.map((request) => new URL(request.url).pathname)).toEqual(['/bff/session', '/api/accounts', '/bff/session/keepalive', '/api/accounts']);
    const traces = world.sent.map(traceOf);
    expect(new Set(traces.map((trace) => trace.traceId)).size).toBe(4); // each request its own trace
  });

  it("a read's retry stays in its trace, as a new span", async () => {
    const world = fakeWorld([problemResponse(503, { errorCode: 'SERVICE_UNAVAILABLE', retryAfterSeconds: 1 }), okResponse()]);
    await createResilientFetch(world.env)(new Request('http://bank.test/api/accounts'));
    const [first, retry] = world.sent.map(traceOf);
    expect(retry!.traceId).toBe(first!.traceId);
    expect(retry!.spanId).not.toBe(first!.spanId);
  });

  it('keeps the headers the request had', async () => {
    const world = fakeWorld([okResponse()]);
    await createResilientFetch(world.env)(new Request('http://bank.test/api/accounts', { method: 'POST', body: '{}', headers: { 'Content-Type': 'application/json', 'X-CSRF-Token': 'csrf' } }));
    const [sent] = world.sent;
    expect(sent!.headers.get('x-csrf-token')).toBe('csrf');
    expect(sent!.headers.get('content-type')).toBe('application/json');
    expect(await sent!.text()).toBe('{}');
    traceOf(sent!);
  });
});
