/**
 * The names the gate's own statements (statements.ts) are prepared under, once per
 * connection, when the commit gate sends them on a pool's connection (commitGate/ownCommit.ts).
 * With DB_PREPARED_STATEMENTS=unnamed they are sent unnamed: behind a transaction pooler a
 * name prepared on one server connection is missing on the next (adr/0060).
 */

/**
 * Each call site's template is one SQL text, prepared once per connection under a name of
 * its own (`tw_1`, `tw_2`, …): PostgreSQL then parses and plans it once, not per send.
 * The names are as many as the call sites (fewer than a hundred), so nothing grows without bound.
 * The text is joined once per call site too, not per statement: a text joined afresh is a
 * string V8 must flatten again wherever it is read (the cancellable client looks at its
 * first letter; adr/0035).
 */
interface Prepared {
  readonly name: string;
  readonly sql: string;
}
const prepared = new WeakMap<TemplateStringsArray, Prepared>();
let named = 0;

/** The name and the `$n` text of a call site's template. */
export function preparedOf(strings: TemplateStringsArray): Prepared {
  let known = prepared.get(strings);
  if (!known) {
    let sql = strings[0]!;
    for (let i = 1; i < strings.length; i++) sql += `$${i}${strings[i]}`;
    known = { name: `tw_${++named}`, sql };
    prepared.set(strings, known);
  }
  return known;
}
