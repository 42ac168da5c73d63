/**
 * W3C Trace Context (https://www.w3.org/TR/trace-context/) for the API and the BFF: each
 * request's trace id is the caller's `traceparent` trace id when the header is valid (the
 * SPA sends one on every request, the BFF on every call to the API), else a W3C trace id
 * the caller proposed in `X-Trace-Id`, else a new one; each tier gives the request its own
 * span id. An invalid header is ignored, never an error (hostile input, adr/0012, adr/0018).
 *
 * The span of a request is started by one process-wide {@link SpanStarter}: plain random
 * ids by default; the OpenTelemetry bootstrap (`otel.ts`, loaded only when
 * OTEL_EXPORTER_OTLP_ENDPOINT is set) installs one that records and exports real spans.
 */
import { randomFillSync } from 'node:crypto';

/** 32 lowercase hex digits, not all zero: a W3C trace id, and the only X-Trace-Id a caller may propose. */
const traceIdPattern = /^(?!0{32})[0-9a-f]{32}$/;
const spanIdPattern = /^(?!0{16})[0-9a-f]{16}$/;
/** version-traceid-parentid-flags; a later version may append fields after a dash. */
const traceparentPattern = /^([0-9a-f]{2})-([0-9a-f]{32})-([0-9a-f]{16})-([0-9a-f]{2})(-.*)?$/;

/** What a caller's headers say about the trace this request belongs to. */
export interface IncomingTrace {
  traceId: string;
  /** The caller's span (from `traceparent`); absent when only X-Trace-Id named the trace. */
  parentSpanId?: string;
  sampled: boolean;
}

/** This tier's span of one request. */
export interface RequestSpan {
  readonly traceId: string;
  readonly spanId: string;
  readonly sampled: boolean;
  /** Ends the span with the answer's status (499 for a caller who hung up). */
  end(statusCode: number): void;
}

/** What a span is started with. */
export interface SpanStart {
  /** The span's name, e.g. `GET` (low cardinality: no ids). */
  name: string;
  /** The trace to join: its id always, its parent span when the caller sent a traceparent. */
  trace: IncomingTrace;
  attributes: Record<string, string>;
}

/** Starts the span of a request. */
export type SpanStarter = (start: SpanStart) => RequestSpan;

/**
 * A valid `traceparent`, else undefined (RFC-style parse of the W3C header: version `ff` is
 * invalid, version 00 has exactly four fields, ids are lowercase hex and not all zero).
 */
export function parseTraceparent(value: unknown): IncomingTrace | undefined {
  if (typeof value !== 'string' || value.length > 512) return undefined;
  const match = traceparentPattern.exec(value.trim());
  if (!match) return undefined;
  const [, version, traceId, parentSpanId, flags, rest] = match as unknown as [string, string, string, string, string, string | undefined];
  if (version === 'ff' || (version === '00' && rest !== undefined)) return undefined;
  if (!traceIdPattern.test(traceId) || !spanIdPattern.test(parentSpanId)) return undefined;
  return { traceId, parentSpanId, sampled: (Number.parseInt(flags, 16) & 1) === 1 };
}

/** The `traceparent` that names `span` as the parent of a call it makes. */
export function traceparentOf(span: Pick<RequestSpan, 'traceId' | 'spanId' | 'sampled'>): string {
  return `00-${span.traceId}-${span.spanId}-${span.sampled ? '01' : '00'}`;
}

/** A traceparent under `traceId` with a new span id (a call made outside any request's span), or undefined for a traceId that is not a W3C one. */
export function childTraceparent(traceId: string): string | undefined {
  return traceIdPattern.test(traceId) ? traceparentOf({ traceId, spanId: newSpanId(), sampled: true }) : undefined;
}

/**
 * Random bytes as hex, drawn from a pool filled 4 KiB at a time (as Node's randomUUID
 * caches its entropy): two ids per request, and a `randomBytes` call each cost a syscall's
 * worth of CPU (about 2 % of a deposit's API time in the profile of issue 15). Trace ids
 * name requests; they are not secrets.
 */
const pool = Buffer.alloc(4096);
let poolUsed = pool.length;
function randomHex(bytes: number): string {
  if (poolUsed + bytes > pool.length) {
    randomFillSync(pool);
    poolUsed = 0;
  }
  const hex = pool.toString('hex', poolUsed, poolUsed + bytes);
  poolUsed += bytes;
  return hex;
}

/** A new random trace id (16 bytes). */
export function newTraceId(): string {
  let id: string;
  do id = randomHex(16);
  while (!traceIdPattern.test(id));
  return id;
}

/** A new random span id (8 bytes). */
export function newSpanId(): string {
  let id: string;
  do id = randomHex(8);
  while (!spanIdPattern.test(id));
  return id;
}

/** The trace a request joins: its valid traceparent, else its valid X-Trace-Id, else a new one. */
export function incomingTrace(headers: Record<string, string | string[] | undefined>): IncomingTrace {
  const parent = parseTraceparent(headers.traceparent);
  if (parent) return parent;
  const proposed = headers['x-trace-id'];
  if (typeof proposed === 'string' && traceIdPattern.test(proposed)) return { traceId: proposed, sampled: true };
  return { traceId: newTraceId(), sampled: true };
}

/** Without OpenTelemetry: ids only, nothing recorded. */
const plainSpans: SpanStarter = ({ trace }) => ({
  traceId: trace.traceId,
  spanId: newSpanId(),
  sampled: trace.sampled,
  end: () => undefined,
});

let starter: SpanStarter = plainSpans;

/** Installs the process's span starter (the OpenTelemetry bootstrap does, once, at start). */
export function useSpanStarter(next: SpanStarter): void {
  starter = next;
}

/** Starts a request's span with the installed starter. */
export function startRequestSpan(start: SpanStart): RequestSpan {
  return starter(start);
}
