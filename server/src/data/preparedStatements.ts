/**
 * The names the gate's own statements (statements.ts) are prepared under, shared by the adapter
 * (its `statementNameGenerator`) and the commit gate's statement that is its own commit,
 * which sends on the pool's connection itself. With DB_PREPARED_STATEMENTS=unnamed neither
 * uses them (database.ts, commitGate/ownCommitConnections.ts): behind a transaction pooler a
 * name prepared on one server connection is missing on the next (adr/0060).
 */
import type { SqlQuery } from '@prisma/driver-adapter-utils';

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
export const statementName = Symbol('tidewater.statementName');
let named = 0;

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

/** adapter-pg's `statementNameGenerator`, and the name the gate's own commit prepares under (commitGate/ownCommitConnections.ts): a direct statement's name; undefined (unnamed, not kept) for every query of Prisma's own. */
export function preparedNameOf(query: SqlQuery): string {
  return (query as SqlQuery & { [statementName]?: string })[statementName] as string;
}

