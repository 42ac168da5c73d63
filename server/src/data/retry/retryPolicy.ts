/**
 * The one retry layer (adr/0007): only the data layer retries, and only
 * through a `RetryPolicy`. A failure is retried when the transient classifier calls it
 * retryable, the caller says rerunning this unit of work is safe, retries are left, the
 * process-wide retry budget has a token and the request's signal has not fired.
 */
import { setTimeout as delay } from 'node:timers/promises';
import { defaults } from '../../config.ts';
import { countRetry } from '../../metrics.ts';
import type { DatabaseKind } from '../databaseKind.ts';
import { processRetryBudget, type RetryBudget } from './retryBudget.ts';
import { classify, type Classification, type TransientKind } from './transient.ts';

/** A classification, or `kind: 'handled'` for an error only a `handle` predicate opted in. */
export type RetryReason = Omit<Classification, 'kind'> & { kind: TransientKind | 'handled' };

/** What one call of {@link RetryPolicy.execute} needs to know. */
export interface ExecuteOptions {
  /** The request's deadline: no attempt starts after it fires, and a wait between attempts ends with its reason. */
  signal?: AbortSignal;
  /**
   * May this unit of work run again after this failure? Default: only when the database
   * confirmed nothing was applied. A whole transaction that failed before its COMMIT, or a
   * read, passes `() => true`.
   */
  isSafeToRetry?: (reason: RetryReason) => boolean;
  /**
   * The wait for the circuit breaker (connections/circuitBreaker.ts): when the failed
   * attempt met an open breaker (a database known to be down), a promise that settles once
   * the breaker closes (rejecting with the signal's reason when the deadline comes first).
   * The policy then waits for it instead of a back-off and runs the work again, spending
   * neither a retry nor a budget token: the breaker, not the callers, bounds the logins
   * during an outage. `wait` counts the waits from 1.
   */
  waitForDatabase?: (wait: number) => Promise<void> | undefined;
}

/** Runs a unit of work, rerunning it after temporary failures. */
export interface RetryPolicy {
  /** Retries after the first attempt (0: never retried). */
  readonly maxRetries: number;
  /** Runs `fn(attempt)` (attempt 0 first); resolves to its result or rejects with its last error. */
  execute<T>(fn: (attempt: number) => Promise<T>, options?: ExecuteOptions): Promise<T>;
}

/** Options for {@link exponential}; the numbers default to `config.ts`'s table. */
export interface ExponentialOptions {
  /** Default `defaults.dbMaxRetries` (4: up to 5 attempts). */
  maxRetries?: number;
  /** The first step; default `defaults.dbRetryBaseDelayMs`. Steps double: d, 2d, 4d, … */
  delayMs?: number;
  /** No step is longer; default `defaults.dbRetryMaxDelayMs` (10 s, the Retry-After cap). */
  maxDelayMs?: number;
  /** Opts more errors in, e.g. `(e, c) => c?.kind === 'statementTimeout'`. */
  handle?: (error: unknown, classification: Classification | undefined) => boolean;
  /** Called before each wait: log it at warn with `reason.code`. `attempt` counts retries from 1. */
  onRetry?: (error: unknown, attempt: number, delayMs: number, reason: RetryReason) => void;
  /** Default the process-wide {@link processRetryBudget}. */
  budget?: RetryBudget;
  /** In [0, 1); default `Math.random`. */
  random?: () => number;
  /** Default a timer that rejects with `signal.reason` when the signal fires. */
  sleep?: (ms: number, signal?: AbortSignal) => Promise<void>;
}

/** Waits `ms`, or rejects with `signal.reason` as soon as the signal fires. */
export async function abortableSleep(ms: number, signal?: AbortSignal): Promise<void> {
  try {
    await delay(ms, undefined, signal ? { signal } : {});
  } catch (error) {
    // node:timers/promises rejects with its own AbortError; the caller is owed the signal's reason.
    throw signal?.aborted ? signal.reason : error;
  }
}

/** Waits for the circuit breaker per execution at most: each is a whole outage, so more means a flapping server, met by the ordinary retries. */
const MAX_BREAKER_WAITS = 10;

/** The default of `isSafeToRetry`: only what the database confirms it did not apply. */
const confirmedNotApplied = (reason: RetryReason) => reason.confirmedNotApplied;

/** Each wait is a random 50–100 % of its step `min(delayMs × 2^n, maxDelayMs)`, so failures that came together do not retry together. */
export function exponential(options: ExponentialOptions = {}): RetryPolicy {
  const maxRetries = options.maxRetries ?? defaults.dbMaxRetries;
  const delayMs = options.delayMs ?? defaults.dbRetryBaseDelayMs;
  const maxDelayMs = options.maxDelayMs ?? defaults.dbRetryMaxDelayMs;
  const {
    handle,
    onRetry,
    budget = processRetryBudget,
    random = Math.random,
    sleep = abortableSleep,
  } = options;

  const reasonFor = (error: unknown): RetryReason | undefined => {
    const classification = classify(error);
    if (!handle?.(error, classification)) return classification?.retryable ? classification : undefined;
    const code = String((error as { code?: unknown } | null)?.code ?? 'HANDLED');
    return { kind: 'handled', code, confirmedNotApplied: false, ...classification, retryable: true };
  };

  return {
    maxRetries,
    async execute(fn, { signal, isSafeToRetry = confirmedNotApplied, waitForDatabase } = {}) {
      let retries = 0;
      let breakerWaits = 0;
      for (let attempt = 0; ; attempt++) {
        signal?.throwIfAborted();
        try {
          const result = await fn(attempt);
          budget.recordSuccess();
          return result;
        } catch (error) {
          const reason = reasonFor(error);
          if (!reason || signal?.aborted || !isSafeToRetry(reason)) throw error;
          const back = breakerWaits < MAX_BREAKER_WAITS ? waitForDatabase?.(breakerWaits + 1) : undefined;
          if (back) {
            breakerWaits += 1;
            countRetry(reason.code, 'breaker_wait');
            await back;
            continue;
          }
          if (retries >= maxRetries) {
            if (maxRetries > 0) countRetry(reason.code, 'retries_spent');
            throw error;
          }
          if (!budget.trySpend()) {
            countRetry(reason.code, 'budget_spent');
            throw error;
          }
          const waitMs = Math.min(delayMs * 2 ** retries, maxDelayMs) * (0.5 + 0.5 * random());
          retries += 1;
          countRetry(reason.code, 'retried');
          onRetry?.(error, retries, waitMs, reason);
          await sleep(waitMs, signal);
        }
      }
    },
  };
}

/** Never retries: one attempt, its error as it came. */
export function none(): RetryPolicy {
  return {
    maxRetries: 0,
    async execute(fn, options) {
      options?.signal?.throwIfAborted();
      return fn(0);
    },
  };
}

/** PGlite is embedded and single-connection, so it is not retried; a server database is. */
export function policyFor(kind: DatabaseKind, options?: ExponentialOptions): RetryPolicy {
  return kind === 'pglite' ? none() : exponential(options);
}
