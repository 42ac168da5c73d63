/**
 * Every operation of the spec, read from the document itself (no list in the tests: an
 * operation added to the spec is covered without editing them), and a valid request for
 * each built from the spec's own examples.
 *
 * A valid request needs an example for every required parameter and for a required
 * body; an operation that lacks one makes {@link specOperations} throw
 * {@link MissingExamples} naming it. Optional parameters are left out (the examples of
 * opaque values such as cursors need not be valid on a real server).
 *
 * Values the caller owns (its account ids, a refresh token, an Idempotency-Key) come
 * from a {@link RequestValues}, asked BY NAME for every parameter and body property, so
 * no operation is special-cased here.
 */
import { pointerOf, resolved, type Node, type OpenApiDocument } from '@tidewater/test-support/openApiDocument';

const METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'] as const;

/** One parameter, `$ref` resolved. */
interface SpecParameter {
  name: string;
  in: 'path' | 'query' | 'header' | 'cookie';
  required: boolean;
  hasExample: boolean;
  example: unknown;
}

/** One operation as the contract tests need it. */
export interface SpecOperation {
  operationId: string;
  /** Upper case, as sent. */
  method: string;
  /** The OpenAPI path template, e.g. `/api/accounts/{accountId}`. */
  path: string;
  /** Where the operation stands in the document. */
  pointer: string;
  parameters: SpecParameter[];
  /** The JSON body to send, when the operation takes one. */
  body?: { required: boolean; mediaType: string; hasExample: boolean; example: unknown };
  /** Needs a bearer token (its `security`, else the document's, names a scheme). */
  secured: boolean;
  /** `x-no-deadline: true`: a hang-up does not cancel it; the deadline still bounds it. */
  noDeadline: boolean;
  /** `x-money-send: true`. */
  moneySend: boolean;
  /** The statuses it declares, as in the spec ('200', '503', …). */
  statuses: string[];
}

/** Operations whose examples cannot make a valid request; the message names each gap. */
export class MissingExamples extends Error {
  override readonly name = 'MissingExamples';
  readonly gaps: string[];
  constructor(gaps: string[]) {
    super(`the spec lacks the examples to build a valid request:\n  - ${gaps.join('\n  - ')}`);
    this.gaps = gaps;
  }
}

/** The first example a media type or parameter gives: `example`, else the first `examples` value. */
function exampleOf(document: OpenApiDocument, node: Node): { hasExample: boolean; example: unknown } {
  if ('example' in node) return { hasExample: true, example: node.example };
  const examples = node.examples as Record<string, Node> | undefined;
  const first = examples && Object.entries(examples)[0];
  if (!first) return { hasExample: false, example: undefined };
  const { node: example } = resolved(document, first[1], pointerOf('examples', first[0]));
  return 'value' in example ? { hasExample: true, example: example.value } : { hasExample: false, example: undefined };
}

function parametersOf(document: OpenApiDocument, pathItem: Node, operation: Node): SpecParameter[] {
  const byKey = new Map<string, SpecParameter>();
  for (const list of [pathItem.parameters, operation.parameters]) {
    for (const raw of (list as Node[] | undefined) ?? []) {
      const { node } = resolved(document, raw, '#/parameters');
      const parameter: SpecParameter = {
        name: String(node.name),
        in: node.in as SpecParameter['in'],
        required: node.required === true,
        ...exampleOf(document, node),
      };
      byKey.set(`${parameter.in}:${parameter.name.toLowerCase()}`, parameter);
    }
  }
  return [...byKey.values()];
}

function bodyOf(document: OpenApiDocument, operation: Node, pointer: string): SpecOperation['body'] {
  if (!operation.requestBody) return undefined;
  const { node } = resolved(document, operation.requestBody as Node, `${pointer}/requestBody`);
  const content = (node.content ?? {}) as Record<string, Node>;
  const mediaType = Object.keys(content).find((type) => /^application\/([\w.+-]+\+)?json$/.test(type));
  if (!mediaType) throw new Error(`${pointer}: only JSON request bodies are supported, got ${Object.keys(content).join(', ')}`);
  return { required: node.required === true, mediaType, ...exampleOf(document, content[mediaType]!) };
}

/** What a valid request for `operation` needs and the spec does not give. */
function gapsOf(operation: SpecOperation): string[] {
  const gaps = operation.parameters
    .filter((p) => p.required && !p.hasExample)
    .map((p) => `${operation.operationId}: required ${p.in} parameter "${p.name}" has no example`);
  if (operation.body?.required && !operation.body.hasExample)
    gaps.push(`${operation.operationId}: its required ${operation.body.mediaType} body has no example`);
  return gaps;
}

/** Every operation of the document, in document order; throws {@link MissingExamples} when any cannot be built. */
export function specOperations(document: OpenApiDocument): SpecOperation[] {
  const operations: SpecOperation[] = [];
  for (const [path, pathItem] of Object.entries(document.paths)) {
    for (const method of METHODS) {
      const operation = pathItem[method] as Node | undefined;
      if (!operation) continue;
      const pointer = pointerOf('paths', path, method);
      const operationId = operation.operationId;
      if (typeof operationId !== 'string') throw new Error(`${method.toUpperCase()} ${path} has no operationId`);
      const security = (operation.security ?? document.security ?? []) as Array<Record<string, string[]>>;
      operations.push({
        operationId,
        method: method.toUpperCase(),
        path,
        pointer,
        parameters: parametersOf(document, pathItem, operation),
        body: bodyOf(document, operation, pointer),
        secured: security.some((requirement) => Object.keys(requirement).length > 0),
        noDeadline: operation['x-no-deadline'] === true,
        moneySend: operation['x-money-send'] === true,
        statuses: Object.keys((operation.responses ?? {}) as Node),
      });
    }
  }
  const gaps = operations.flatMap(gapsOf);
  if (gaps.length) throw new MissingExamples(gaps);
  return operations;
}

/** What the request being built holds so far: a value may depend on it (a step-up authorisation approves the payment it rides with). */
export interface RequestSoFar {
  operationId: string;
  /** The path parameters, already chosen. */
  path: Record<string, string>;
  /** The properties of the same body object chosen before this one, in the example's order. */
  siblings: Record<string, unknown>;
}

/** Where the values of a request come from. */
export interface RequestValues {
  /**
   * The value to send for a parameter or body property named `name` (any depth): the
   * caller's own (an account id, a refresh token, a fresh Idempotency-Key), else `example`.
   */
  valueFor(name: string, example: unknown, soFar?: RequestSoFar): Promise<unknown>;
  /** The bearer token for a secured operation. */
  accessToken(): Promise<string>;
}

/** A request ready to send. */
export interface BuiltRequest {
  operationId: string;
  method: string;
  /** Path and query string. */
  target: string;
  headers: Record<string, string>;
  body?: string;
}

async function substitute(value: unknown, values: RequestValues, soFar: Omit<RequestSoFar, 'siblings'>): Promise<unknown> {
  if (Array.isArray(value)) return Promise.all(value.map((item) => substitute(item, values, soFar)));
  if (typeof value !== 'object' || value === null) return value;
  // One property after another, so each sees the ones before it.
  const siblings: Record<string, unknown> = {};
  for (const [key, item] of Object.entries(value)) {
    siblings[key] = await values.valueFor(key, await substitute(item, values, soFar), { ...soFar, siblings: { ...siblings } });
  }
  return siblings;
}

/** Builds one valid request for `operation`: required parameters, body and bearer token. */
export async function buildRequest(operation: SpecOperation, values: RequestValues): Promise<BuiltRequest> {
  let target = operation.path;
  const query = new URLSearchParams();
  const headers: Record<string, string> = {};
  const path: Record<string, string> = {};
  for (const parameter of operation.parameters.filter((p) => p.required)) {
    const value = String(await values.valueFor(parameter.name, parameter.example));
    if (parameter.in === 'path') {
      path[parameter.name] = value;
      target = target.replace(`{${parameter.name}}`, encodeURIComponent(value));
    }
    else if (parameter.in === 'query') query.append(parameter.name, value);
    else if (parameter.in === 'header') headers[parameter.name] = value;
    else throw new Error(`${operation.operationId}: cookie parameters are not supported`);
  }
  if (query.size) target += `?${query}`;
  if (operation.secured) headers.Authorization = `Bearer ${await values.accessToken()}`;
  const request: BuiltRequest = { operationId: operation.operationId, method: operation.method, target, headers };
  if (operation.body) {
    headers['Content-Type'] = operation.body.mediaType;
    request.body = JSON.stringify(await substitute(operation.body.example, values, { operationId: operation.operationId, path }));
  }
  return request;
}

/** The operation with this id; throws naming it when the spec has none. */
export function operationById(operations: SpecOperation[], operationId: string): SpecOperation {
  const found = operations.find((operation) => operation.operationId === operationId);
  if (!found) throw new Error(`the spec has no operation "${operationId}"`);
  return found;
}

