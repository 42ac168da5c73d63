/**
 * The curl and TypeScript samples of every operation (`x-codeSamples`, which the rendered
 * docs show beside each operation), made from the document's own examples: its path and
 * required query parameters' examples, its request body's first example, a fresh
 * Idempotency-Key where the operation takes one, and the bearer token where it is secured.
 * Not written by hand, so a sample cannot drift from the contract. The TypeScript sample
 * uses @tidewater/client (client/, adr/0044; the docs serve its tarball, adr/0059): openapi-fetch on this document's types, and
 * for a money send its `moneySend`, which keeps the key, honours Retry-After and reads the
 * key on an unknown outcome as the introduction says.
 */
const METHODS = ['get', 'put', 'post', 'delete', 'patch'];

/** The node a local `$ref` names, or the node itself. */
function resolve(document, node) {
  let current = node;
  while (current && typeof current.$ref === 'string') {
    current = current.$ref
      .slice(2)
      .split('/')
      .reduce((at, key) => at?.[key.replaceAll('~1', '/').replaceAll('~0', '~')], document);
  }
  return current;
}

/** The first example of a media type or parameter. */
function exampleOf(document, node) {
  if (!node) return undefined;
  if (node.example !== undefined) return node.example;
  const first = Object.values(node.examples ?? {})[0];
  return first === undefined ? undefined : resolve(document, first).value;
}

const shellQuote = (text) => `'${text.replaceAll("'", "'\\''")}'`;

/** The parts of one operation's request, from its examples. */
function sampleRequest(document, path, method, operation) {
  const parameters = (operation.parameters ?? []).map((p) => resolve(document, p));
  const pathParams = Object.fromEntries(parameters.filter((p) => p.in === 'path').map((p) => [p.name, exampleOf(document, p)]));
  const query = Object.fromEntries(parameters.filter((p) => p.in === 'query' && p.required).map((p) => [p.name, exampleOf(document, p)]));
  const idempotencyKey = parameters.find((p) => p.in === 'header' && p.name === 'Idempotency-Key');
  const body = exampleOf(document, resolve(document, operation.requestBody)?.content?.['application/json']);
  const secured = (operation.security ?? document.security ?? []).some((requirement) => Object.keys(requirement).length > 0);
  const concretePath = path.replace(/\{([^}]+)\}/g, (_, name) => encodeURIComponent(String(pathParams[name])));
  const search = new URLSearchParams(Object.entries(query).map(([k, v]) => [k, String(v)])).toString();
  const moneySend = operation['x-money-send'] === true;
  return { method: method.toUpperCase(), path, url: `${concretePath}${search ? `?${search}` : ''}`, pathParams, query, idempotencyKey: Boolean(idempotencyKey), moneySend, body, secured };
}

function curlSample(request) {
  const lines = [`curl -sS -X ${request.method} "$API${request.url}"`];
  if (request.secured) lines.push(`-H "authorization: Bearer $TOKEN"`);
  if (request.idempotencyKey) lines.push(`-H "idempotency-key: $(uuidgen)"`);
  if (request.body !== undefined) lines.push(`-H 'content-type: application/json'`, `-d ${shellQuote(JSON.stringify(request.body))}`);
  return lines.join(' \\\n  ');
}

const indented = (value) => JSON.stringify(value, null, 2).replace(/\n/g, '\n  ');

/** A money send through `moneySend`: one key for every try, the outcome as a typed result. */
function moneySendSample(request) {
  const lines = [`  path: '${request.path}',`];
  if (Object.keys(request.pathParams).length > 0) lines.push(`  pathParams: ${indented(request.pathParams)},`);
  lines.push(`  body: ${indented(request.body)},`);
  return [
    '// One Idempotency-Key for this send, on every retry; an unknown outcome is read from the key, never sent under a new one.',
    `const result = await moneySend(api, {\n${lines.join('\n')}\n});`,
    "if (result.kind === 'sent') console.log(result.data);",
    "else if (result.kind === 'unknown') console.log(`keep ${result.key}: send it again later, or read GET /api/idempotency-keys/{key}`);",
  ];
}

function typescriptSample(request) {
  const params = {};
  if (Object.keys(request.pathParams).length > 0) params.path = request.pathParams;
  if (Object.keys(request.query).length > 0) params.query = request.query;
  const options = [];
  const paramsText = indented(params);
  if (request.idempotencyKey) {
    const withHeader = paramsText === '{}' ? `{ header: { 'Idempotency-Key': idempotencyKey } }` : paramsText.replace(/\n  \}$/, `,\n    "header": { "Idempotency-Key": idempotencyKey }\n  }`);
    options.push(`  params: ${withHeader},`);
  } else if (paramsText !== '{}') options.push(`  params: ${paramsText},`);
  if (request.body !== undefined) options.push(`  body: ${indented(request.body)},`);
  const call = request.moneySend
    ? moneySendSample(request)
    : [
        ...(request.idempotencyKey ? ['// One key per request, kept until its outcome is known: every retry of it reuses the key.', 'const idempotencyKey = crypto.randomUUID();'] : []),
        `const { data, error } = await api.${request.method}('${request.path}'${options.length > 0 ? `, {\n${options.join('\n')}\n}` : ''});`,
      ];
  return [
    `import { createTidewaterClient${request.moneySend ? ', moneySend' : ''} } from '@tidewater/client'; // installed as the introduction's "The official client" says`,
    '',
    `const api = createTidewaterClient({ baseUrl: 'http://localhost:8081'${request.secured ? ', accessToken: () => accessToken' : ''} });`,
    ...call,
  ].join('\n');
}

/** The document with every operation's `x-codeSamples` (a copy; the input is not changed). */
export function withCodeSamples(document) {
  const copy = structuredClone(document);
  for (const [path, item] of Object.entries(copy.paths ?? {})) {
    for (const method of METHODS) {
      const operation = item[method];
      if (!operation) continue;
      const request = sampleRequest(copy, path, method, operation);
      operation['x-codeSamples'] = [
        { lang: 'Shell', label: 'curl', source: curlSample(request) },
        { lang: 'TypeScript', label: 'TypeScript', source: typescriptSample(request) },
      ];
    }
  }
  return copy;
}
