/**
 * Sends one built request over a real socket and times it to the last byte of the body.
 * It never throws for an HTTP status; a request that gets no answer (the client hung up
 * on purpose, gave up waiting, or the connection failed) is a value too.
 */
import type { BuiltRequest } from './specOperations.ts';

/** An answer, fully read. */
export interface Answer {
  kind: 'answer';
  status: number;
  headers: Headers;
  contentType: string;
  bodyText: string;
  /** The parsed JSON body, else the text. */
  body: unknown;
  ms: number;
}

/** No answer: why, and after how long. */
export interface NoAnswer {
  kind: 'no-answer';
  reason: 'hung-up' | 'timed-out' | 'connection-failed';
  detail: string;
  ms: number;
}

/** How to send. */
export interface SendOptions {
  /** Sent as X-Trace-Id, so the API's log lines for this request can be found. */
  traceId: string;
  /** Give up (and hang up) after this long: a missing answer, reported as `timed-out`. */
  timeoutMs: number;
  /** Hang up on purpose this long after sending (the client hang-up fault). */
  hangUpAfterMs?: number;
}

/** A trace id the API takes as its own: a W3C one, 32 lowercase hex digits (adr/0018). */
export function newTraceId(): string {
  return Array.from(crypto.getRandomValues(new Uint8Array(16)), (byte) => byte.toString(16).padStart(2, '0')).join('');
}

/** Sends `request` to `baseUrl`. */
export async function sendRequest(baseUrl: string, request: BuiltRequest, options: SendOptions): Promise<Answer | NoAnswer> {
  const controller = new AbortController();
  let reason: NoAnswer['reason'] | undefined;
  const timers = [
    setTimeout(() => ((reason ??= 'timed-out'), controller.abort()), options.timeoutMs),
    options.hangUpAfterMs === undefined
      ? undefined
      : setTimeout(() => ((reason ??= 'hung-up'), controller.abort()), options.hangUpAfterMs),
  ];
  const started = performance.now();
  const elapsed = () => Math.round(performance.now() - started);
  try {
    const response = await fetch(baseUrl + request.target, {
      method: request.method,
      headers: { ...request.headers, 'X-Trace-Id': options.traceId },
      body: request.body,
      signal: controller.signal,
    });
    const bodyText = await response.text();
    const contentType = response.headers.get('content-type') ?? '';
    let body: unknown = bodyText;
    if (bodyText && /json/.test(contentType)) {
      try {
        body = JSON.parse(bodyText);
      } catch {
        // left as text: the validator reports a body that is not the JSON it claims to be
      }
    }
    return { kind: 'answer', status: response.status, headers: response.headers, contentType, bodyText, body, ms: elapsed() };
  } catch (error) {
    return { kind: 'no-answer', reason: reason ?? 'connection-failed', detail: String((error as Error)?.cause ?? error), ms: elapsed() };
  } finally {
    for (const timer of timers) clearTimeout(timer);
  }
}
