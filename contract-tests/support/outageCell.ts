/**
 * One cell of the outage matrix: an operation's request under a fault, what its contract
 * says the answer must be, and every way the answer broke it.
 *
 * What the contract says (spec: "When the database is down, hung or busy"):
 * - every operation answers 503 SERVICE_UNAVAILABLE, with Retry-After, `retryAfterSeconds`
 *   equal to it and `Cache-Control: no-store`, within the deadline + 2 s, never a 500;
 * - the exempt operations (`x-no-deadline`) answer any status their spec declares, but
 *   never a 500 and never past the same bound;
 * - liveness answers 200 (its contract: "Does not touch the database");
 * - a client that hangs up gets nothing, and the API logs 499 for its trace id in time
 *   (liveness may also have answered its 200 before the hang-up).
 * Every answer validates against the spec's response for its status.
 */
import type { ResponseValidator } from '@tidewater/test-support/responseValidator';
import type { Answer, NoAnswer } from './sendRequest.ts';
import type { SpecOperation } from './specOperations.ts';

/** Operations that do not touch the database: they answer 200 through every outage. */
const LIVENESS_OPERATIONS = ['getHealth'];

/** What an operation must do under a fault. */
export type Expectation =
  | { kind: 'answer'; statuses: number[]; why: string }
  | { kind: 'declared'; why: string }
  | { kind: 'hung-up'; why: string; orAnswer?: number[] };

/** The expectation for `operation` under a fault (`hangUp`: the client hangs up). */
export function expectationFor(operation: SpecOperation, hangUp: boolean): Expectation {
  const liveness = LIVENESS_OPERATIONS.includes(operation.operationId);
  if (hangUp) return liveness ? { kind: 'hung-up', why: 'liveness: 200 first, or 499 logged', orAnswer: [200] } : { kind: 'hung-up', why: 'no answer, 499 logged' };
  if (liveness) return { kind: 'answer', statuses: [200], why: 'liveness: 200' };
  if (operation.noDeadline) return { kind: 'declared', why: 'exempt: a declared status, not 500' };
  return { kind: 'answer', statuses: [503], why: '503' };
}

/** A status the API logged for one trace id, and when (ms after the request was sent). */
export interface Logged {
  status: number;
  ms: number;
}

/** The statuses the API logged for `traceId` (a 499 as `"status":499` or `res.statusCode`). */
export function loggedFor(logLines: string[], traceId: string, sentAtEpochMs: number): Logged[] {
  const found: Logged[] = [];
  for (const line of logLines) {
    if (!line.includes(traceId)) continue;
    try {
      const entry = JSON.parse(line) as { status?: unknown; res?: { statusCode?: unknown }; time?: unknown };
      const status = typeof entry.status === 'number' ? entry.status : entry.res?.statusCode;
      if (typeof status === 'number') found.push({ status, ms: Number(entry.time ?? Date.now()) - sentAtEpochMs });
    } catch {
      // not a JSON line
    }
  }
  return found;
}

/** The result of one request of one cell. */
export interface CellResult {
  operationId: string;
  traceId: string;
  outcome: Answer | NoAnswer;
  /** The hang-up fault: the 499 the API logged. */
  logged?: Logged;
  failures: string[];
  /** Substitutions that kept their example, and the like. */
  notes: string[];
}

const errorCodeOf = (answer: Answer) => (answer.body as { errorCode?: string } | undefined)?.errorCode ?? '';

/** Checks an answer against what the spec declares for it, plus the outage headers on a 503. */
function contractFailures(operation: SpecOperation, answer: Answer, validator: ResponseValidator): string[] {
  const failures = validator.validate(operation.operationId, answer).map((problem) => `spec: ${problem}`);
  if (answer.status === 500) failures.unshift(`answered 500 ${errorCodeOf(answer)}: an outage is never a 500`);
  if (answer.status === 503) {
    const cacheControl = answer.headers.get('cache-control') ?? '';
    if (!/\bno-store\b/.test(cacheControl)) failures.push(`503 without Cache-Control: no-store (got "${cacheControl}")`);
    const retryAfter = answer.headers.get('retry-after');
    const inBody = (answer.body as { retryAfterSeconds?: unknown } | undefined)?.retryAfterSeconds;
    if (retryAfter === null) failures.push('503 without Retry-After');
    else if (Number(retryAfter) !== inBody) failures.push(`Retry-After ${retryAfter} differs from retryAfterSeconds ${String(inBody)}`);
  }
  return failures;
}

/** Judges one cell's outcome against its expectation and the bound. */
export function judgeOutage(
  operation: SpecOperation,
  expectation: Expectation,
  result: Pick<CellResult, 'outcome' | 'logged'> & { loggedStatuses: Logged[] },
  validator: ResponseValidator,
  boundMs: number,
): string[] {
  const { outcome } = result;
  const failures: string[] = [];
  if (result.loggedStatuses.some((l) => l.status === 500)) failures.push('the API logged a 500 for this request');
  if (expectation.kind === 'hung-up') {
    if (outcome.kind === 'answer' && expectation.orAnswer?.includes(outcome.status))
      return [...failures, ...contractFailures(operation, outcome, validator)];
    if (outcome.kind === 'answer') return [...failures, `answered ${outcome.status} ${errorCodeOf(outcome)} in ${outcome.ms} ms, before the client hung up`];
    if (outcome.reason !== 'hung-up') return [...failures, `no answer (${outcome.reason}: ${outcome.detail})`];
    const late = result.loggedStatuses.find((l) => l.status === 499);
    if (!result.logged) failures.push(late ? `499 logged after ${late.ms} ms, past the bound of ${boundMs} ms` : `no 499 logged for its trace id within ${boundMs} ms`);
    return failures;
  }
  if (outcome.kind === 'no-answer') return [...failures, `no answer within ${outcome.ms} ms (${outcome.reason}: ${outcome.detail})`];
  if (outcome.ms > boundMs) failures.push(`answered after ${outcome.ms} ms, past the bound of ${boundMs} ms`);
  if (expectation.kind === 'answer' && !expectation.statuses.includes(outcome.status))
    failures.push(`answered ${outcome.status} ${errorCodeOf(outcome)}, expected ${expectation.statuses.join(' or ')}`);
  return [...failures, ...contractFailures(operation, outcome, validator)];
}

/**
 * Judges a request that should simply work (the database healthy, or back): its success
 * or its own declared 4xx/501 (a valid request can still be refused), never a 5xx
 * outage, within `boundMs`.
 */
export function judgeSuccess(operation: SpecOperation, outcome: Answer | NoAnswer, validator: ResponseValidator, boundMs: number): string[] {
  if (outcome.kind === 'no-answer') return [`no answer (${outcome.reason} after ${outcome.ms} ms: ${outcome.detail})`];
  const failures: string[] = [];
  if (outcome.status > 501) failures.push(`answered ${outcome.status} ${errorCodeOf(outcome)}`);
  if (outcome.ms > boundMs) failures.push(`answered after ${outcome.ms} ms, past ${boundMs} ms`);
  return [...failures, ...contractFailures(operation, outcome, validator)];
}
