/**
 * The process-wide retry budget (adr/0007): a token bucket that keeps
 * retries a small share of the work, so an outage is not multiplied by every request's
 * retries (a retry storm). Each retry spends one whole token; when fewer than one is
 * left, the first failure is final and the request answers 503 at once.
 */

import { defaults } from '../../config.ts';

/** The budget's numbers, from the config table (their reasons are there). */
export const RETRY_BUDGET_DEFAULTS = {
  capacity: defaults.retryBudgetCapacity,
  perSuccess: defaults.retryBudgetPerSuccess,
  perSecond: defaults.retryBudgetPerSecond,
} as const;

/** Options for {@link retryBudget}; every number defaults to {@link RETRY_BUDGET_DEFAULTS}. */
export interface RetryBudgetOptions {
  capacity?: number;
  perSuccess?: number;
  perSecond?: number;
  /** Milliseconds from any fixed origin; injectable for tests. Default `performance.now`. */
  now?: () => number;
}

/** A snapshot for metrics and logs. */
export interface RetryBudgetState {
  /** Tokens now (fractional; a retry needs one whole token). */
  tokens: number;
  capacity: number;
  /** Retries allowed since start. */
  spent: number;
  /** Retries refused since start (each made a failure final). */
  refused: number;
}

/** A token bucket shared by every retry in the process. */
export interface RetryBudget {
  /** Takes one token for a retry; false (and counted as refused) when less than one is left. */
  trySpend(): boolean;
  /** Adds `perSuccess` tokens: call after every unit of work that succeeded. */
  recordSuccess(): void;
  state(): RetryBudgetState;
}

/** A new, full budget. */
export function retryBudget(options: RetryBudgetOptions = {}): RetryBudget {
  const { capacity, perSuccess, perSecond } = { ...RETRY_BUDGET_DEFAULTS, ...options };
  const now = options.now ?? (() => performance.now());
  let tokens = capacity;
  let refilledAt = now();
  let spent = 0;
  let refused = 0;

  const add = (amount: number) => {
    tokens = Math.min(capacity, tokens + amount);
  };
  const refillByTime = () => {
    const at = now();
    add((Math.max(0, at - refilledAt) / 1000) * perSecond);
    refilledAt = at;
  };

  return {
    trySpend() {
      refillByTime();
      if (tokens < 1 - 1e-9) {
        // the tolerance: ten successes of 0.1 add up to 0.9999999999999999
        refused++;
        return false;
      }
      tokens = Math.max(0, tokens - 1);
      spent++;
      return true;
    },
    recordSuccess() {
      // Full (nearly always): nothing to add, and no clock to read on every unit of work. The
      // time it skips is not lost: trySpend refills by time first, and a full budget caps it.
      if (tokens >= capacity) return;
      refillByTime();
      add(perSuccess);
    },
    state() {
      refillByTime();
      return { tokens, capacity, spent, refused };
    },
  };
}

/** The one budget every retry policy of this process spends from by default. */
export const processRetryBudget: RetryBudget = retryBudget();
