/**
 * When may a money send's 503 say `applied: false`? Only when the answer knows nothing
 * moved (adr/0010):
 *
 * - the request owns the idempotency claim it made (a claim it lost, or never got, could
 *   be another request's money);
 * - no COMMIT of the request started (money moves only in a gated commit: once one
 *   started, its outcome may be unknown);
 * - it is younger than stale-after less 10 s, so nobody can have taken its claim over
 *   (a claim is taken over only after stale-after; 10 s covers clocks and the answer's
 *   way out).
 *
 * Otherwise `applied` is left out (unknown). It is never `true` on a 503.
 */

/** Margin below stale-after within which a claim is certainly still the request's own. */
const appliedMarginMs = 10_000;

/** What the rule looks at. */
export interface AppliedFacts {
  ownsClaim: boolean;
  commitStarted: boolean | undefined;
  /** Since the request began claiming its key (measured before the claim was written). */
  ageMs: number;
  staleAfterMs: number;
}

/** True when the 503 may say `applied: false`. */
export function knowsNothingMoved(facts: AppliedFacts): boolean {
  return facts.ownsClaim && facts.commitStarted !== true && facts.ageMs < facts.staleAfterMs - appliedMarginMs;
}

/** `{ applied: false }` when the rule holds, else nothing. */
export function appliedExtras(facts: AppliedFacts): { applied?: false } {
  return knowsNothingMoved(facts) ? { applied: false } : {};
}
