import { describe, expect, it } from 'vitest';
import { childTraceparent, incomingTrace, newSpanId, newTraceId, parseTraceparent, traceparentOf } from './traceContext.ts';

const traceId = '0af7651916cd43dd8448eb211c80319c';

describe('parseTraceparent', () => {
  it("reads a valid version-00 header: the caller's trace id, its span as the parent, the sampled flag", () => {
    expect(parseTraceparent(`00-${traceId}-b7ad6b7169203331-01`)).toEqual({ traceId, parentSpanId: 'b7ad6b7169203331', sampled: true });
    expect(parseTraceparent(`00-${traceId}-b7ad6b7169203331-00`)).toEqual({ traceId, parentSpanId: 'b7ad6b7169203331', sampled: false });
  });

  it('reads a later version by its first four fields', () => {
    expect(parseTraceparent(`01-${traceId}-b7ad6b7169203331-01-future`)).toMatchObject({ traceId });
  });

  it.each([
    ['not a string', ['00', traceId]],
    ['empty', ''],
    ['version ff', `ff-${traceId}-b7ad6b7169203331-01`],
    ['version 00 with a fifth field', `00-${traceId}-b7ad6b7169203331-01-extra`],
    ['an all-zero trace id', `00-${'0'.repeat(32)}-b7ad6b7169203331-01`],
    ['an all-zero span id', `00-${traceId}-0000000000000000-01`],
    ['uppercase hex', `00-${traceId.toUpperCase()}-b7ad6b7169203331-01`],
    ['a short trace id', `00-${traceId.slice(1)}-b7ad6b7169203331-01`],
    ['no flags', `00-${traceId}-b7ad6b7169203331`],
    ['not hex', `00-${traceId.slice(0, 31)}z-b7ad6b7169203331-01`],
    ['very long', `00-${traceId}-b7ad6b7169203331-01-${'a'.repeat(600)}`],
    ['a control character', `00-${traceId}-b7ad6b7169203331-01\u0000`],
  ])('ignores %s', (_what, value) => {
    expect(parseTraceparent(value)).toBeUndefined();
  });
});

describe('incomingTrace', () => {
  it('prefers a valid traceparent over X-Trace-Id', () => {
    expect(incomingTrace({ traceparent: `00-${traceId}-b7ad6b7169203331-01`, 'x-trace-id': newTraceId() })).toMatchObject({ traceId, parentSpanId: 'b7ad6b7169203331' });
  });

  it('takes an X-Trace-Id that is a W3C trace id when the traceparent is missing or invalid', () => {
    expect(incomingTrace({ traceparent: 'garbage', 'x-trace-id': traceId })).toEqual({ traceId, sampled: true });
  });

  it('makes a new trace id for anything else', () => {
    for (const headers of [{}, { 'x-trace-id': 'my-trace-1234' }, { 'x-trace-id': ['a', 'b'] }, { traceparent: ['x'] }]) {
      const trace = incomingTrace(headers);
      expect(trace.traceId).toMatch(/^[0-9a-f]{32}$/);
      expect(trace.parentSpanId).toBeUndefined();
    }
  });
});

describe('ids and headers', () => {
  it('never hands out the same bytes twice across refills of its pool of randomness', () => {
    // 4 KiB a pool: 2,000 ids of 24 bytes each cross about a dozen refills.
    const ids = Array.from({ length: 1_000 }, () => [newTraceId(), newSpanId()]).flat();
    expect(new Set(ids).size).toBe(ids.length);
    for (const id of ids) expect(id).toMatch(/^([0-9a-f]{32}|[0-9a-f]{16})$/);
  });

  it('makes distinct well-formed ids and a header that parses back', () => {
    const ids = new Set(Array.from({ length: 200 }, newSpanId));
    expect(ids.size).toBe(200);
    for (const id of ids) expect(id).toMatch(/^[0-9a-f]{16}$/);
    const spanId = newSpanId();
    expect(parseTraceparent(traceparentOf({ traceId, spanId, sampled: true }))).toEqual({ traceId, parentSpanId: spanId, sampled: true });
  });

  it('childTraceparent keeps the trace id with a new span id, and refuses a non-W3C one', () => {
    const child = parseTraceparent(childTraceparent(traceId));
    expect(child).toMatchObject({ traceId, sampled: true });
    expect(childTraceparent('legacy-trace-id')).toBeUndefined();
  });
});
