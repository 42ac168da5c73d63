import { describe, expect, it } from 'vitest';
import { appliedExtras, knowsNothingMoved, type AppliedFacts } from './appliedRule.ts';

const young: AppliedFacts = { ownsClaim: true, commitStarted: undefined, ageMs: 1_000, staleAfterMs: 120_000 };

describe('applied: false on a money 503', () => {
  it.each<[string, Partial<AppliedFacts>, boolean]>([
    ['a young request that owns its claim and committed nothing', {}, true],
    ['commitStarted explicitly false', { commitStarted: false }, true],
    ['a claim it does not own', { ownsClaim: false }, false],
    ['a commit that started', { commitStarted: true }, false],
    ['just under stale-after less 10 s', { ageMs: 109_999 }, true],
    ['at stale-after less 10 s', { ageMs: 110_000 }, false],
    ['older than stale-after', { ageMs: 130_000 }, false],
    ['a scaled-down stale-after', { ageMs: 5_000, staleAfterMs: 14_000 }, false],
  ])('%s → %s', (_name, change, want) => {
    const facts = { ...young, ...change };
    expect(knowsNothingMoved(facts)).toBe(want);
    expect(appliedExtras(facts)).toEqual(want ? { applied: false } : {});
  });
});
