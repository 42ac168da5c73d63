/**
 * `tidewater/problem-examples`: every `application/problem+json` response has an example,
 * and each example is what the server sends for its `errorCode`: the `status`, `type` and
 * `title` of the one error catalog
 * (contract/src/errors.ts, as spec/generated/errorCatalog.json holds it). So the docs never
 * show a problem the server would not send.
 */
import { readFileSync } from 'node:fs';

const PROBLEM_JSON = 'application/problem+json';
const catalog = JSON.parse(readFileSync(new URL('../../generated/errorCatalog.json', import.meta.url), 'utf8')).codes;

/** The examples of a media type, by name (`example` as one named "example"). */
function examplesOf(content, ctx) {
  if (content.example !== undefined) return [['example', content.example]];
  return Object.entries(content.examples ?? {}).map(([name, example]) => [name, ctx.resolve(example).node?.value]);
}

/** What is wrong with one example; empty when nothing is. */
function faultsOf(example) {
  const entry = catalog[example?.errorCode];
  if (!entry) return [`errorCode ${JSON.stringify(example?.errorCode)} is not in the catalog`];
  const faults = [];
  if (example.status !== entry.status) faults.push(`status ${example.status} should be ${entry.status}`);
  if (example.type !== entry.type) faults.push(`type ${JSON.stringify(example.type)} should be ${JSON.stringify(entry.type)}`);
  if (example.title !== entry.title) faults.push(`title ${JSON.stringify(example.title)} should be ${JSON.stringify(entry.title)}`);
  return faults;
}

/** Redocly rule factory (visitor on each Operation). */
export default function ProblemExamples() {
  return {
    Operation: {
      enter(operation, ctx) {
        for (const [status, raw] of Object.entries(operation.responses ?? {})) {
          const response = ctx.resolve(raw).node;
          const content = response?.content?.[PROBLEM_JSON];
          if (!content) continue;
          const location = ctx.location.child(['responses', status, 'content', PROBLEM_JSON]);
          const examples = examplesOf(content, ctx);
          if (examples.length === 0) {
            ctx.report({ message: `Response ${status} of "${operation.operationId}" has no problem example.`, location });
          }
          for (const [name, example] of examples) {
            const faults = faultsOf(example);
            if (faults.length > 0) {
              ctx.report({ message: `Problem example "${name}" of response ${status} of "${operation.operationId}" is not what the server sends: ${faults.join('; ')}.`, location });
            }
          }
        }
      },
    },
  };
}
