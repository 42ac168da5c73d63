/**
 * Every response example of spec/openapi.yaml is an answer the API could give: each one,
 * with its declared headers' examples, passes the same response validator the contract
 * tests hold the servers to (its schema, its content type, its required headers). Every
 * 2xx with a body has one (the lint rule `tidewater/success-examples` says so too), so the
 * docs never show a sample invented from a schema.
 */
import { describe, expect, it } from 'vitest';
import { loadOpenApiDocument, pointerOf, resolved, type Node } from './openApiDocument.ts';
import { createResponseValidator } from './responseValidator.ts';

const document = loadOpenApiDocument();
const validator = createResponseValidator(document);
const METHODS = ['get', 'put', 'post', 'delete', 'patch'];

interface ExampleCase {
  name: string;
  operationId: string;
  status: number;
  headers: Record<string, string>;
  body: unknown;
}

/** Every example of every response with a body, by operation, status, media type and name. */
function exampleCases(): { cases: ExampleCase[]; withoutExample: string[] } {
  const cases: ExampleCase[] = [];
  const withoutExample: string[] = [];
  for (const [path, item] of Object.entries(document.paths)) {
    for (const method of METHODS) {
      const operation = item[method] as Node | undefined;
      if (!operation) continue;
      const operationId = String(operation.operationId);
      for (const [status, raw] of Object.entries((operation.responses ?? {}) as Record<string, Node>)) {
        const { node: response } = resolved(document, raw, pointerOf('paths', path, method, 'responses', status));
        const headers: Record<string, string> = {};
        for (const [name, rawHeader] of Object.entries((response.headers ?? {}) as Record<string, Node>)) {
          const header = resolved(document, rawHeader, '#').node;
          if (header.required === true) headers[name.toLowerCase()] = String(header.example);
        }
        for (const [mediaType, content] of Object.entries((response.content ?? {}) as Record<string, Node>)) {
          const named: Array<[string, unknown]> =
            content.example !== undefined
              ? [['example', content.example]]
              : Object.entries((content.examples ?? {}) as Record<string, Node>).map(([name, example]) => [name, resolved(document, example, '#').node.value]);
          if (named.length === 0 && status.startsWith('2')) withoutExample.push(`${operationId} ${status}`);
          for (const [name, body] of named) {
            cases.push({ name: `${operationId} ${status} ${name}`, operationId, status: Number(status), headers: { ...headers, 'content-type': mediaType }, body });
          }
        }
      }
    }
  }
  return { cases, withoutExample };
}

const { cases, withoutExample } = exampleCases();

describe('the examples of spec/openapi.yaml', () => {
  it('give every 2xx with a body an example', () => {
    expect(withoutExample).toEqual([]);
    expect(cases.filter((c) => c.status < 300).length).toBeGreaterThanOrEqual(20);
  });

  it.each(cases.map((c) => [c.name, c] as const))('%s is an answer the API could give', (_name, example) => {
    expect(validator.validate(example.operationId, { status: example.status, headers: example.headers, bodyText: JSON.stringify(example.body) })).toEqual([]);
  });
});
