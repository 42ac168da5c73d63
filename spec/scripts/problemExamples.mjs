/**
 * Writes the `type`, `title` and `status` of every problem example in spec/openapi.yaml and
 * spec/bff.yaml from the one error catalog (contract/src/errors.ts), by its `errorCode`, so
 * the docs show what the server sends (`npm run generate` runs it first; the lint rule
 * `tidewater/problem-examples` refuses an example that differs). Only those values are
 * rewritten, in place; the rest of each document, comments and layout included, stays as
 * written.
 */
import { readFile, writeFile } from 'node:fs/promises';
import { isScalar, parseDocument, visit } from 'yaml';
import { errorCatalog, problemType } from '../../contract/src/errors.ts';

/** A value as YAML writes it: plain when that reads back the same, else double-quoted. */
function scalarText(value) {
  if (typeof value === 'number') return String(value);
  return /^[A-Za-z/][\w ,.'()/-]*$/.test(value) ? value : JSON.stringify(value);
}

/** Rewrites one document's problem examples; answers whether anything changed. */
export async function writeProblemExamples(documentPath) {
  const text = await readFile(documentPath, 'utf8');
  const edits = [];
  visit(parseDocument(text), {
    Map(_key, node) {
      const code = node.get('errorCode');
      if (typeof code !== 'string' || !(code in errorCatalog) || !node.has('traceId')) return;
      const want = { type: problemType(code), title: errorCatalog[code].title, status: errorCatalog[code].status };
      for (const [name, value] of Object.entries(want)) {
        const scalar = node.get(name, true);
        if (!isScalar(scalar)) throw new Error(`${documentPath}: the ${code} example has no ${name} to rewrite`);
        if (scalar.value !== value) edits.push({ start: scalar.range[0], end: scalar.range[1], text: scalarText(value) });
      }
    },
  });
  let written = text;
  for (const edit of edits.sort((a, b) => b.start - a.start)) written = written.slice(0, edit.start) + edit.text + written.slice(edit.end);
  if (written !== text) await writeFile(documentPath, written);
  return written !== text;
}
