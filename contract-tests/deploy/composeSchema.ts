/**
 * The Compose Specification's own JSON Schema (compose-spec.json beside this file, copied
 * unchanged from the compose-spec repository's compose-spec.json schema at commit 170098ba,
 * Apache-2.0), the schema Docker Compose v2 validates a file against before it runs it.
 * With no Docker engine or Compose here (adr/0020), it is what tells a misspelt or
 * misplaced key from a real one.
 */
import { readFileSync } from 'node:fs';
import { Ajv } from 'ajv';
import { parse } from 'yaml';

const schema = JSON.parse(readFileSync(new URL('./compose-spec.json', import.meta.url), 'utf8')) as object;
// The schema names draft-07 by its https address, which Ajv's bundled meta-schema does not carry.
const validate = new Ajv({ strict: false, allErrors: true, validateSchema: false }).compile(schema);

/** Where the compose file's text breaks the Compose Specification ("/services/api: must NOT have additional properties (exposes)"); empty when it holds. */
export function composeSchemaErrors(composeText: string): string[] {
  if (validate(parse(composeText, { merge: true }))) return [];
  return (validate.errors ?? []).map((error) => `${error.instancePath || '/'}: ${error.message ?? error.keyword}${'additionalProperty' in error.params ? ` (${String(error.params.additionalProperty)})` : ''}`);
}
