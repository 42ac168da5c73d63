/**
 * What a request carries down to the data layer without threading it through every call:
 * its traceId, its logger, its AbortSignal (fired by the deadline or a hang-up) and who
 * is signed in. Held in the async scope (asyncScope.ts) for the lifetime of the request.
 */
import type { Logger } from 'pino';
import { scopeSlot } from './asyncScope.ts';
import type { ProblemExtras } from '../errors/apiProblem.ts';
import type { RequestDeadline } from './requestDeadline.ts';
import type { Commit, RequestCommits } from './commitOutcome.ts';

/** One quota policy that applied to a request, and what is left of it (rateLimitFields.ts). */
export interface RateLimitReport {
  /** The policy's name (`sign-in-address`). */
  readonly policy: string;
  /** Units the window holds (`q`): requests, or failed sign-ins for the sign-in policies. */
  readonly quota: number;
  readonly windowSeconds: number;
  /** Units left once this request is counted (`r`). */
  remaining: number;
  /** Seconds until a unit is given back (`t`). */
  resetSeconds: number;
}

/** The per-request context. */
export interface RequestContext extends RequestCommits {
  readonly traceId: string;
  readonly log: Logger;
  /** Fires when the request must stop: its deadline passed or its client hung up. */
  readonly signal: AbortSignal;
  /** The deadline behind `signal`: the commit gate and the result filter disarm it. */
  readonly deadline: RequestDeadline;
  userId?: string;
  /** Set once the request wrote to the primary: its later reads go to the primary too. */
  hasWrites?: boolean;
  /** Epoch ms until which this user's reads go to the primary (they wrote recently). */
  readFromPrimaryUntil?: number;
  /**
   * The commits this request sent, each its own state (commitOutcome.ts, adr/0052): read
   * through `requestMayHaveMoved` (money may have moved) and `requestIsSettlingCommit` (a
   * lost answer is being looked into, so the router waits for it past the deadline).
   */
  commits?: Commit[];
  /**
   * What an outage 503 of this request adds, asked at the moment it is answered (a money
   * send sets it once it owns its claim, so a 503 at the deadline can say `applied: false`).
   */
  outageExtras?: () => ProblemExtras;
  /** Why this request will answer 503 when its error cannot tell (a busy account, spent retries): metrics.ts. */
  unavailableCause?: string;
  /** The quota policies that applied to this request (rateLimitFields.ts), written as its RateLimit fields. */
  rateLimits?: RateLimitReport[];
}

const slot = scopeSlot<RequestContext>();

/** Runs `fn` with `context` as the current request's context. */
export function runWithContext<T>(context: RequestContext, fn: () => T): T {
  return slot.run(context, fn);
}

/** The current request's context, or undefined outside a request (start-up, jobs, CLIs). */
export function currentContext(): RequestContext | undefined {
  return slot.get();
}
