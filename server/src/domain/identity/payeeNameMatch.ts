/**
 * Confirmation of payee's name rule (adr/0072): how the name a payer expects compares with
 * the name the bank holds, as the UK's CoP and the EU's Verification of Payee answer it:
 * `match`, `close_match` or `no_match`. Both names are folded first (case, accents,
 * punctuation and spacing), so "grace  HOPPER." is Grace Hopper.
 *
 * A close match is what a payer who knows the payee writes when not copying it: a slip of
 * at most CLOSE_EDITS letters (one for a name shorter than LONG_NAME letters, where two
 * would already be a fifth of it), the same words in another order, or initials for the
 * first names with the whole last name ("G Hopper", "G. M. Hopper").
 */

/** The answer of one comparison. */
export type PayeeNameMatch = 'match' | 'close_match' | 'no_match';

/** 2: letters (inserted, removed or changed) a close match may differ by: a typo and a doubled or dropped letter. */
const CLOSE_EDITS = 2;
/** 8: a folded name shorter than this may differ by one letter only. */
const LONG_NAME = 8;

/** `name` folded to lower-case unaccented words split on anything that is not a letter or digit. */
function foldedWords(name: string): string[] {
  return name
    .normalize('NFKD')
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    .split(/[^\p{L}\p{N}]+/u)
    .filter((word) => word.length > 0);
}

/** How `expected` (the payer's) compares with `held` (the bank's). */
export function matchPayeeName(expected: string, held: string): PayeeNameMatch {
  const given = foldedWords(expected);
  const known = foldedWords(held);
  if (given.length === 0 || known.length === 0) return 'no_match';
  const givenText = given.join(' ');
  const knownText = known.join(' ');
  if (givenText === knownText) return 'match';
  const allowed = knownText.length < LONG_NAME ? 1 : CLOSE_EDITS;
  if (editDistance(givenText, knownText, allowed) <= allowed) return 'close_match';
  if ([...given].sort().join(' ') === [...known].sort().join(' ')) return 'close_match';
  if (initialsWithLastName(given, known)) return 'close_match';
  return 'no_match';
}

/** True when `given` is initials (or whole words) for the first names of `known` and then its whole last name. */
function initialsWithLastName(given: string[], known: string[]): boolean {
  if (given.length < 2 || given.length > known.length || given.at(-1) !== known.at(-1)) return false;
  const firsts = given.slice(0, -1);
  // The initials stand for the first names in order: "G Hopper" or "G M Hopper" for Grace Murray Hopper.
  return firsts.every((word, i) => word === known[i] || (word.length === 1 && known[i]!.startsWith(word)));
}

/** Levenshtein distance of `a` and `b`, or `limit + 1` as soon as it is known to exceed `limit`. */
function editDistance(a: string, b: string, limit: number): number {
  if (Math.abs(a.length - b.length) > limit) return limit + 1;
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    for (let j = 1; j <= b.length; j++) {
      current[j] = Math.min(previous[j]! + 1, current[j - 1]! + 1, previous[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1));
    }
    if (Math.min(...current) > limit) return limit + 1;
    previous = current;
  }
  return previous[b.length]!;
}
