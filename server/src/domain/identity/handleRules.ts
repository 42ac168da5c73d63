/**
 * The handles sign-up refuses besides a taken one (adr/0046, adr/0064): one a payer could
 * mistake for an existing customer's, and one that looks like the bank speaking. Both
 * answer 409 HANDLE_TAKEN: to the visitor the handle is not available.
 *
 * Both compare skeletons, and the skeleton is the database's `handle_skeleton` (case,
 * separators, look-alike characters and doubled letters folded: migration
 * `1764790000000_one_skeleton_per_handle.sql`), asked of the handle and of each reserved
 * word alike, so the folding is written once. A UNIQUE index on the skeleton makes the
 * first rule hold under races; this module's reads only give the refusal its words.
 */
import type { DataLayer } from '../../data/dataLayer.ts';
import { ApiProblem } from '../../errors/apiProblem.ts';

/** The bank's name and words only its own people would use: refused anywhere in a handle. */
const RESERVED_ANYWHERE = [
  'tidewater', 'admin', 'administrator', 'system', 'support', 'helpdesk', 'service', 'security', 'fraud', 'official',
  'moderator', 'compliance', 'billing', 'payment', 'noreply', 'refund', 'customer', 'verify', 'banking',
];
/**
 * Short role words, which too many names hold inside them: refused at a handle's start or end.
 * Compared as skeletons, whose doubled letters fold: a word like `root` (read `rot`) would
 * refuse every name that starts with rot…, so none is here.
 */
const RESERVED_AT_ENDS = ['help', 'care', 'team', 'bank', 'desk', 'staff'];
/** What drops from a skeleton to compare the bank's name by its consonants (tidewatr, tydewater). */
const vowelsAndLookAlikes = /[aeiouyl]/g;

interface Skeletons {
  handle: string;
  anywhere: string;
  atEnds: string;
}

/** The reserved-word rule over one data layer. */
export function handleRules(data: DataLayer) {
  return {
    /** 409 HANDLE_TAKEN when `handle` looks like the bank speaking, in any spacing or spelling the skeleton folds. */
    async refuseReservedHandle(handle: string): Promise<void> {
      const [row] = await data.read((db) => db.$queryRaw<Skeletons[]>`
        SELECT handle_skeleton(${handle}::text) AS handle,
          (SELECT string_agg(handle_skeleton(w), ',') FROM unnest(string_to_array(${RESERVED_ANYWHERE.join(',')}::text, ',')) AS w) AS anywhere,
          (SELECT string_agg(handle_skeleton(w), ',') FROM unnest(string_to_array(${RESERVED_AT_ENDS.join(',')}::text, ',')) AS w) AS "atEnds"`);
      const skeleton = row!.handle;
      const [bankName] = row!.anywhere.split(',');
      const reserved =
        row!.anywhere.split(',').some((word) => skeleton.includes(word)) ||
        row!.atEnds.split(',').some((word) => skeleton.startsWith(word) || skeleton.endsWith(word)) ||
        skeleton.replace(vowelsAndLookAlikes, '').includes(bankName!.replace(vowelsAndLookAlikes, ''));
      if (reserved) throw new ApiProblem('HANDLE_TAKEN', 'That handle is reserved. Choose another.');
    },
  };
}
