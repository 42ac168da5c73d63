import { describe, expect, it } from 'vitest';
import { skeletonSafe } from './handles.ts';

/** The skeleton as migration 1764790000000_one_skeleton_per_handle.sql defines it. */
const skeleton = (handle: string) =>
  [...handle.toLowerCase()]
    .map((c) => ({ 1: 'l', i: 'l', 0: 'o', 3: 'e', 4: 'a', 5: 's', 7: 't', 8: 'b', _: '' })[c] ?? c)
    .join('')
    .replaceAll('rn', 'm')
    .replaceAll('vv', 'w')
    .replace(/(.)\1+/g, '$1');

describe('skeletonSafe', () => {
  it('gives the first 5,000 numbers 5,000 skeletons, where decimal folds 1 and 11 together', () => {
    expect(skeleton('soak1')).toBe(skeleton('soak11'));
    const skeletons = new Set(
      Array.from({ length: 5_000 }, (_, n) => skeleton(`soak${skeletonSafe(n)}r${skeletonSafe(0)}`)),
    );
    expect(skeletons.size).toBe(5_000);
  });
});
