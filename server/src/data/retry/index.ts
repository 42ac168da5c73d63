/**
 * The retry family: what a database error means and what to do about it. `transient.ts`
 * classifies an error (an outage, a contention, a lost connection, or nothing to retry);
 * `retryPolicy.ts` decides whether and when to try a transaction again, bounded by the
 * process's `retryBudget.ts`; a retried contention that never cleared ends as `ContentionExhausted`, a
 * unique violation is the caller's to answer (`uniqueViolation.ts`).
 *
 * Other families and layers import it through this file only.
 */
export { ContentionExhausted, isContentionExhausted } from './contentionExhausted.ts';
export { retryBudget } from './retryBudget.ts';
export { exponential, none, policyFor, type RetryPolicy, type RetryReason } from './retryPolicy.ts';
export { classify, isReadOnlyRefusal, onReadWritePath } from './transient.ts';
export { isUniqueViolation } from './uniqueViolation.ts';
