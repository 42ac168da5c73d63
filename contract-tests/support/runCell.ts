/**
 * Sends one cell's request with its own trace id and, when the client hangs up, waits
 * for the API to log the 499 under that trace id (until a little past the bound, so a
 * late 499 is told apart from none).
 */
import { loggedFor, type Logged } from './outageCell.ts';
import { newTraceId, sendRequest, type Answer, type NoAnswer } from './sendRequest.ts';
import type { BuiltRequest } from './specOperations.ts';

/** What one send gave, before judging. */
export interface Sent {
  traceId: string;
  sentAtEpochMs: number;
  outcome: Answer | NoAnswer;
  /** The 499 logged within the bound (hang-up only). */
  logged?: Logged;
}

/** Sends `request` to the API; see the module comment. */
export async function runCell(
  api: { url: string; logLines: string[] },
  request: BuiltRequest,
  options: { label: string; boundMs: number; timeoutMs: number; hangUpAfterMs?: number },
): Promise<Sent> {
  const traceId = newTraceId();
  const sentAtEpochMs = Date.now();
  const outcome = await sendRequest(api.url, request, {
    traceId,
    timeoutMs: options.timeoutMs,
    ...(options.hangUpAfterMs === undefined ? {} : { hangUpAfterMs: options.hangUpAfterMs }),
  });
  if (outcome.kind === 'answer' || outcome.reason !== 'hung-up') return { traceId, sentAtEpochMs, outcome };
  for (;;) {
    const logged = loggedFor(api.logLines, traceId, sentAtEpochMs).find((l) => l.status === 499);
    if (logged) return { traceId, sentAtEpochMs, outcome, ...(logged.ms <= options.boundMs ? { logged } : {}) };
    if (Date.now() - sentAtEpochMs > options.timeoutMs) return { traceId, sentAtEpochMs, outcome };
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}
