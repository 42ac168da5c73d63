/**
 * Whether a read's first attempt earns its one retry, and after what named wait
 * (adr/0009): a failed connection (1 s), any 503, and a 502 or 504 whose body is
 * JSON or empty. The wait is the body's `retryAfterSeconds`, else `Retry-After`, else
 * 5 s for a gateway's answer. Everything else (our own abort included) is not retried.
 */
import { parseBodyText, retryAfterHeaderSeconds } from './apiProblem.ts';
import { ConnectionFailed } from './requestErrors.ts';
import { CONNECTION_WAIT_MS, GATEWAY_WAIT_MS } from './timings.ts';

/** How one attempt ended: an answer, or one of the request layer's errors. */
export type AttemptOutcome = { response: Response; error?: undefined } | { response?: undefined; error: Error };

/** The wait in ms before the retry (without jitter), or null when the outcome is not retried. */
export async function readRetryWaitMs(outcome: AttemptOutcome, nowMs = Date.now()): Promise<number | null> {
  if (outcome.error) return outcome.error instanceof ConnectionFailed ? CONNECTION_WAIT_MS : null;
  const { response } = outcome;
  if (![502, 503, 504].includes(response.status)) return null;
  const body = parseBodyText(await response.clone().text().catch(() => ''));
  const isJson = typeof body === 'object' && body !== null;
  if (response.status !== 503 && body !== undefined && !isJson) return null; // a proxy's HTML page
  const fromBody =
    isJson && typeof (body as { retryAfterSeconds?: unknown }).retryAfterSeconds === 'number'
      ? (body as { retryAfterSeconds: number }).retryAfterSeconds
      : undefined;
  const seconds = fromBody ?? retryAfterHeaderSeconds(response.headers.get('Retry-After'), nowMs);
  return seconds !== undefined && seconds >= 0 ? seconds * 1000 : GATEWAY_WAIT_MS;
}

/** `waitMs` plus up to MAX_JITTER_FRACTION of it, from a die in [0, 1). */
export function withJitter(waitMs: number, die: number, maxFraction: number): number {
  return waitMs * (1 + Math.min(Math.max(die, 0), 1) * maxFraction);
}
