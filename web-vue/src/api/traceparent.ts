/**
 * The W3C `traceparent` the SPA sends on every request (adr/0018): one trace id per request
 * the visitor makes (a read and its one retry share it), a new span id per attempt, sampled.
 * The BFF joins the trace, so the BFF's and the API's log lines for it carry this trace id
 * (`traceId`, also the answer's X-Trace-Id).
 */

/** `bytes` random bytes as lowercase hex, never all zero (W3C: an all-zero id is invalid). */
function randomHex(bytes: number): string {
  const buffer = new Uint8Array(bytes);
  do globalThis.crypto.getRandomValues(buffer);
  while (buffer.every((byte) => byte === 0));
  return Array.from(buffer, (byte) => byte.toString(16).padStart(2, '0')).join('');
}

/** A new trace id (16 bytes). */
export function newTraceId(): string {
  return randomHex(16);
}

/** The header of one attempt under `traceId`: version 00, a new span id, sampled. */
export function traceparentFor(traceId: string): string {
  return `00-${traceId}-${randomHex(8)}-01`;
}
