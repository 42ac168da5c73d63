/**
 * Handles that stay distinct under the bank's handle skeleton (adr/0064: case, look-alike
 * digits and letters, `rn`/`vv` and doubled letters folded, one skeleton per handle). A number
 * written in decimal is not: `1` and `11` fold to one skeleton, so customer 11 of a run could
 * not sign up beside customer 1.
 */

/** Letters the skeleton keeps as they are (no i, l, o, r, n, v), in two disjoint sets, so neighbours never double. */
const EVEN = 'bcdfghjk';
const ODD = 'mpqwxyzu';

/** `n` (a whole number ≥ 0) in those letters, alternating the sets: distinct numbers, distinct skeletons. */
export function skeletonSafe(n: number): string {
  let letters = '';
  let rest = n;
  let position = 0;
  do {
    letters += (position % 2 === 0 ? EVEN : ODD)[rest % 8];
    rest = Math.floor(rest / 8);
    position += 1;
  } while (rest > 0);
  return letters;
}
