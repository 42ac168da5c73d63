/**
 * The one OpenAPI 3.1 document (spec/openapi.yaml), read as the contract tests see it:
 * plain data, with local `$ref`s resolved on demand and every node addressable by its
 * JSON pointer (so a schema is validated where it stands, its own `$ref`s intact).
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { parse } from 'yaml';

/** spec/openapi.yaml, the source of truth. */
const specPath = fileURLToPath(new URL('../../spec/openapi.yaml', import.meta.url));

/** Any JSON object of the document. */
export type Node = Record<string, unknown>;

/** The parts of an OpenAPI document these tests read. */
export interface OpenApiDocument extends Node {
  openapi: string;
  paths: Record<string, Node>;
  components?: Node;
  security?: Array<Record<string, string[]>>;
}

/** Parses the document (default: spec/openapi.yaml). */
export function loadOpenApiDocument(path = specPath): OpenApiDocument {
  const document = parse(readFileSync(path, 'utf8')) as OpenApiDocument;
  if (!document?.openapi?.startsWith('3.1')) throw new Error(`${path} is not an OpenAPI 3.1 document`);
  return document;
}

/** A JSON pointer fragment (`#/paths/~1api~1me/get`) from its segments. */
export function pointerOf(...segments: string[]): string {
  return `#/${segments.map((s) => s.replaceAll('~', '~0').replaceAll('/', '~1')).join('/')}`;
}

/** The node a local pointer (`#/components/…`) names; throws when there is none. */
export function nodeAt(document: OpenApiDocument, pointer: string): Node {
  if (!pointer.startsWith('#/')) throw new Error(`only local $refs are supported, got ${pointer}`);
  let node: unknown = document;
  for (const raw of pointer.slice(2).split('/')) {
    const key = raw.replaceAll('~1', '/').replaceAll('~0', '~');
    node = (node as Node | undefined)?.[key];
  }
  if (typeof node !== 'object' || node === null) throw new Error(`${pointer} names nothing in the spec`);
  return node as Node;
}

/** A node with its `$ref` chain followed, and the pointer where it really stands. */
export function resolved(document: OpenApiDocument, node: Node, pointer: string): { node: Node; pointer: string } {
  for (let hops = 0; typeof node.$ref === 'string'; hops++) {
    if (hops > 20) throw new Error(`$ref cycle at ${pointer}`);
    pointer = node.$ref;
    node = nodeAt(document, pointer);
  }
  return { node, pointer };
}
