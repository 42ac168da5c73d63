/**
 * Which error codes a document (spec/openapi.yaml or spec/bff.yaml, parsed) says each of
 * its operations can answer, and at which status: what the catalog tests hold the
 * servers' catalogs to. A code is declared by any of
 * - an error response's description naming it in backticks (`` `ACCOUNT_NOT_FOUND` ``),
 *   its `$ref` followed, as every shared response (components/responses) does;
 * - an error response's `example` / `examples` whose `errorCode` is it;
 * - the operation's own description or summary naming it with its status
 *   (`` `409 EMAIL_TAKEN` ``).
 * Only ErrorCode names count (`knownCodes`), so other upper-case words in backticks do not.
 */

/** One operation's declarations: code → the statuses it is declared at. */
interface DeclaredOperation {
  operationId: string;
  method: string;
  path: string;
  /** Every response status the operation declares (its success ones included). */
  statuses: number[];
  codes: Map<string, Set<number>>;
}

type Node = Record<string, unknown>;

const HTTP_METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'];

function isNode(value: unknown): value is Node {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Follows a local `$ref` (`#/components/...`); a reference to another document is left as it is. */
function resolve(document: Node, value: unknown): unknown {
  let node = value;
  for (let hops = 0; isNode(node) && typeof node.$ref === 'string' && node.$ref.startsWith('#/'); hops += 1) {
    if (hops > 20) throw new Error(`a $ref cycle at ${node.$ref}`);
    node = node.$ref
      .slice(2)
      .split('/')
      .reduce<unknown>(
        (parent, key) =>
          isNode(parent) ? parent[key.replaceAll('~1', '/').replaceAll('~0', '~')] : undefined,
        document,
      );
  }
  return node;
}

/** The codes in backticks in `text` that are known codes. */
function codesNamedIn(text: unknown, knownCodes: ReadonlySet<string>): string[] {
  if (typeof text !== 'string') return [];
  return [...text.matchAll(/`([A-Z][A-Z0-9_]*)`/g)]
    .map((match) => match[1]!)
    .filter((code) => knownCodes.has(code));
}

/** The `STATUS CODE` pairs in backticks in `text` (`` `409 EMAIL_TAKEN` ``) whose code is known. */
export function statusCodePairsIn(text: unknown, knownCodes: ReadonlySet<string>): Array<[number, string]> {
  if (typeof text !== 'string') return [];
  return [...text.matchAll(/`([1-5]\d\d) ([A-Z][A-Z0-9_]*)`/g)]
    .map((match): [number, string] => [Number(match[1]), match[2]!])
    .filter(([, code]) => knownCodes.has(code));
}

/** The `errorCode`s of a response's examples. */
function exampleCodes(document: Node, response: Node): string[] {
  const codes: string[] = [];
  for (const media of Object.values(isNode(response.content) ? response.content : {})) {
    if (!isNode(media)) continue;
    const examples = isNode(media.examples) ? Object.values(media.examples) : [];
    const values = [
      media.example,
      ...examples.map((example) => (resolve(document, example) as Node | undefined)?.value),
    ];
    for (const value of values)
      if (isNode(value) && typeof value.errorCode === 'string') codes.push(value.errorCode);
  }
  return codes;
}

/** Every operation of `document` with the codes it declares. */
export function declaredErrorCodes(document: Node, knownCodes: ReadonlySet<string>): DeclaredOperation[] {
  const operations: DeclaredOperation[] = [];
  for (const [path, pathItem] of Object.entries(isNode(document.paths) ? document.paths : {})) {
    if (!isNode(pathItem)) continue;
    for (const method of HTTP_METHODS) {
      const operation = pathItem[method];
      if (!isNode(operation)) continue;
      const codes = new Map<string, Set<number>>();
      const declare = (code: string, status: number) =>
        codes.set(code, (codes.get(code) ?? new Set()).add(status));
      const responses = isNode(operation.responses) ? operation.responses : {};
      for (const [statusText, value] of Object.entries(responses)) {
        const status = Number(statusText);
        const response = resolve(document, value);
        if (status < 400 || !isNode(response)) continue;
        for (const code of codesNamedIn(response.description, knownCodes)) declare(code, status);
        for (const code of exampleCodes(document, response)) declare(code, status);
      }
      for (const text of [operation.summary, operation.description]) {
        for (const [status, code] of statusCodePairsIn(text, knownCodes)) declare(code, status);
      }
      operations.push({
        operationId: String(operation.operationId),
        method: method.toUpperCase(),
        path,
        statuses: Object.keys(responses).map(Number),
        codes,
      });
    }
  }
  return operations;
}

/**
 * What is wrong between `catalog` (code → status) and the operations' declarations, as
 * sentences (none when they agree):
 * - an operation declares a code at statuses none of which is the catalog's for it
 *   (or a code the catalog does not have);
 * - an operation's description names a status it declares no response for;
 * - a catalog code that no operation declares at the catalog's status (unless it is
 *   in `outsideOperations`, answered before any operation).
 */
export function catalogDisagreements(
  operations: DeclaredOperation[],
  catalog: Readonly<Record<string, { status: number }>>,
  outsideOperations: ReadonlySet<string> = new Set(),
): string[] {
  const problems: string[] = [];
  for (const operation of operations) {
    const name = `${operation.operationId} (${operation.method} ${operation.path})`;
    for (const [code, statuses] of operation.codes) {
      const listed = [...statuses].sort().join(', ');
      const entry = catalog[code];
      if (!entry) problems.push(`${name} declares ${code} (at ${listed}), which the catalog does not have`);
      else if (!statuses.has(entry.status))
        problems.push(
          `${name} declares ${code} at ${listed}, but the catalog answers it with ${entry.status}`,
        );
      for (const status of statuses) {
        if (!operation.statuses.includes(status))
          problems.push(`${name} names ${status} ${code}, but declares no ${status} response`);
      }
    }
  }
  for (const [code, { status }] of Object.entries(catalog)) {
    if (outsideOperations.has(code)) continue;
    if (!operations.some((operation) => operation.codes.get(code)?.has(status)))
      problems.push(`no operation declares ${code} at the catalog's ${status}`);
  }
  return problems;
}
