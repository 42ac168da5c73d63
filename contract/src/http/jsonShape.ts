/**
 * The shape check of a JSON body, before anything else reads it (adr/0012): its nesting
 * (5,000 levels blew the API's validator's stack and read as an outage at the BFF) and
 * whether every string is well-formed Unicode. Walked without recursion, so the check
 * itself cannot overflow.
 */

/** The deepest a body may nest (no body of the API nests more than 4; the BFF's do not nest). */
export const MAX_JSON_DEPTH = 32;

/** A surrogate code point on its own (a pair reads as the one code point it encodes). */
const loneSurrogate = /\p{Cs}/u;

/** What a body holds that no request may: its nesting, and whether any string (key or value) is not well-formed Unicode. */
export function jsonShape(value: unknown): { depth: number; wellFormed: boolean } {
  let depth = 0;
  let wellFormed = true;
  const stack: Array<[unknown, number]> = [[value, 0]];
  while (stack.length > 0) {
    const [node, level] = stack.pop()!;
    if (typeof node === 'string') wellFormed &&= !loneSurrogate.test(node);
    if (node === null || typeof node !== 'object') continue;
    depth = Math.max(depth, level + 1);
    for (const [key, child] of Object.entries(node)) {
      wellFormed &&= !loneSurrogate.test(key);
      stack.push([child, level + 1]);
    }
  }
  return { depth, wellFormed };
}
