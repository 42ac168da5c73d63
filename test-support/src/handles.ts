/**
 * The one way a test, fixture, drill, bench or soak names a new customer's handle: distinct
 * under the bank's handle skeleton (adr/0064: case, look-alike digits and letters, `_`,
 * `rn`/`vv` and doubled letters folded, one skeleton per handle under a UNIQUE index).
 * A number written in decimal or base 36 is not: `1` and `11` fold to one skeleton, and so
 * do `8` and `b`, so two sign-ups of one run could meet 409 HANDLE_TAKEN by chance.
 *
 * A handle is `label`, then `u`, then twelve letters that spell this process's random mark
 * and its count of handles so far. Every letter of the twelve is one the skeleton keeps as
 * it is and none stands beside itself, and `u` is not among them, so the handle's skeleton
 * ends in exactly those twelve letters whatever the label: two handles of one process have
 * distinct skeletons, and two processes sharing a database (Playwright's workers, a smoke
 * run against a kept stack) meet only if their random marks are equal (1 in 2.7 × 10⁹ for
 * each pair of processes). The letters are consonants without `t` or `r`, so no suffix
 * spells a word the bank reserves (they all need a vowel; its name by consonants needs
 * `t` and `r`).
 */
import { randomInt } from 'node:crypto';

/** Letters the skeleton keeps as they are: no a, e, i, o (every reserved word needs one), l (1), n, r (rn), v (vv), t (tidewatr) or u (the separator). */
const LETTERS = 'bcdfghjkmpqswxyz';
/** Letters after the label: the mark, then the count. */
const MARK_LETTERS = 8;
const COUNT_LETTERS = 4;
/** The first letter has 16 choices, each later one 15 (it differs from the one before). */
const RADIX = LETTERS.length - 1;
/** Handles one process can name: 15⁴ = 50,625. */
const HANDLES_PER_PROCESS = RADIX ** COUNT_LETTERS;
/** The longest label that leaves room for the suffix within the API's 20 characters. */
const LONGEST_LABEL = 20 - 1 - MARK_LETTERS - COUNT_LETTERS;

/** This process's mark: one of 16 × 15⁷ (2.7 × 10⁹). */
const mark = randomInt(LETTERS.length * RADIX ** (MARK_LETTERS - 1));
let named = 0;

/**
 * `value` in `length` letters of {@link LETTERS}, no letter beside itself; distinct values
 * below 16 × 15^(length − 1) give distinct spellings.
 */
function spellApart(value: number, length: number): string {
  const digits: number[] = [];
  let rest = value;
  for (let position = length - 1; position > 0; position--) {
    digits.unshift(rest % RADIX);
    rest = Math.floor(rest / RADIX);
  }
  if (!Number.isSafeInteger(value) || value < 0 || rest >= LETTERS.length) {
    throw new RangeError(`${value} does not fit in ${length} letters`);
  }
  let spelled = LETTERS[rest]!;
  for (const digit of digits) spelled += LETTERS.replace(spelled.at(-1)!, '')[digit];
  return spelled;
}

/**
 * A new handle, never one of this process's earlier ones under the skeleton: `label` (what
 * the test is; its letters a-z are kept, at most {@link LONGEST_LABEL} of them) and the
 * suffix that makes it distinct.
 */
export function uniqueHandle(label = 'c'): string {
  if (named >= HANDLES_PER_PROCESS) throw new RangeError(`one process names at most ${HANDLES_PER_PROCESS} handles`);
  const count = named++;
  const letters = label.toLowerCase().replace(/[^a-z]/g, '').slice(0, LONGEST_LABEL);
  return `${letters}u${spellApart(mark * HANDLES_PER_PROCESS + count, MARK_LETTERS + COUNT_LETTERS)}`;
}
