/**
 * Generates spec/generated/ from spec/openapi.yaml and spec/bff.yaml (`npm run generate -w spec`),
 * after writing their problem examples' type, title and status from the error catalog
 * (scripts/problemExamples.mjs):
 * - openapi.ts    the API document's types, by openapi-typescript;
 * - operations.ts one `as const` table of every API operation (method, paths, flags);
 * - openapi.json  the same API document as JSON, for runtime loaders;
 * - bff.ts        the BFF document's types (its `/bff/*` routes), by openapi-typescript:
 *                 the BFF answers and the SPA reads them (its references into openapi.yaml are inlined);
 * - errorCatalog.json  the one error catalog (contract/src/errors.ts) with its reference
 *                 (contract/src/errorReference.ts): what the lint rule holds the problem
 *                 examples to, and what the docs' error reference is made of. Run by tsx,
 *                 since the catalog is TypeScript.
 * And client/src/generated/openapi.ts, the same types as openapi.ts: the official client
 * carries its own copy, so its package installs outside this workspace (adr/0059).
 * The output is formatted with the repository's Prettier config, so it is stable and
 * `scripts/check.mjs` can diff it byte for byte.
 */
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import openapiTS, { astToString } from 'openapi-typescript';
import prettier from 'prettier';
import { parse } from 'yaml';
import { errorCatalog, problemType } from '../../contract/src/errors.ts';
import { errorReference } from '../../contract/src/errorReference.ts';
import { writeProblemExamples } from './problemExamples.mjs';

const specDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
/** The API's document, the one most of the output is generated from. */
export const specPath = path.join(specDir, 'openapi.yaml');
/** The BFF's own routes (it refers to the API's document for shared schemas). */
export const bffSpecPath = path.join(specDir, 'bff.yaml');
/** Where the committed output lives. */
export const generatedDir = path.join(specDir, 'generated');
/** Where the client's copy of the API's types lives (client/src/generated/openapi.ts). */
export const clientGeneratedDir = path.join(specDir, '../client/src/generated');

/** The first line of a generated file from `source` (spec/openapi.yaml or spec/bff.yaml). */
function header(source) {
  return `// DO NOT EDIT: generated from spec/${source} by spec/scripts/generate.mjs (npm run generate).`;
}
const HEADER = header('openapi.yaml');
const HTTP_METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'];

/** Formats `source` as Prettier would format a file of that name in this repository. */
async function format(source, fileName) {
  const filePath = path.join(generatedDir, fileName);
  const options = (await prettier.resolveConfig(filePath)) ?? {};
  return prettier.format(source, { ...options, filepath: filePath });
}

/** True when the operation needs a bearer token (its own `security`, else the global one). */
function isSecured(document, operation) {
  const requirements = operation.security ?? document.security ?? [];
  return requirements.length > 0 && requirements.every((requirement) => Object.keys(requirement).length > 0);
}

/** One row per operation, in document order. */
export function operationRows(document) {
  const rows = [];
  for (const [template, pathItem] of Object.entries(document.paths ?? {})) {
    for (const method of HTTP_METHODS) {
      const operation = pathItem[method];
      if (!operation) continue;
      rows.push({
        operationId: operation.operationId,
        method: method.toUpperCase(),
        path: template,
        expressPath: template.replace(/\{([^}]+)\}/g, ':$1'),
        moneySend: operation['x-money-send'] === true,
        noDeadline: operation['x-no-deadline'] === true,
        secured: isSecured(document, operation),
      });
    }
  }
  return rows;
}

function renderOperations(document) {
  const entries = operationRows(document).map(
    ({ operationId, ...row }) => `  ${operationId}: ${JSON.stringify(row)},`,
  );
  return [
    HEADER,
    '',
    '/**',
    ' * Every operation of spec/openapi.yaml, keyed by operationId: its HTTP method (upper',
    ' * case), its path as an OpenAPI template and in Express `:param` form, and whether it',
    ' * is a money send (`x-money-send`: Idempotency-Key, 409, 422), not cancelled by a',
    ' * hang-up (`x-no-deadline`; the deadline still bounds it) and secured by a bearer token.',
    ' */',
    'export const operations = {',
    ...entries,
    '} as const;',
    '',
    '/** The operationId of any operation in the contract. */',
    'export type OperationId = keyof typeof operations;',
    '',
    '/** One row of the operations table. */',
    'export type OperationInfo = (typeof operations)[OperationId];',
    '',
  ].join('\n');
}

async function renderTypes(documentPath) {
  const ast = await openapiTS(pathToFileURL(documentPath), { silent: true });
  return `${header(path.basename(documentPath))}\n\n${astToString(ast)}`;
}

function renderJson(document) {
  return JSON.stringify({ 'x-generated': 'DO NOT EDIT: generated from spec/openapi.yaml', ...document });
}

function renderErrorCatalog() {
  const codes = Object.fromEntries(
    Object.entries(errorCatalog).map(([code, { status, title }]) => [
      code,
      { status, title, type: problemType(code), ...errorReference[code] },
    ]),
  );
  return JSON.stringify({ 'x-generated': 'DO NOT EDIT: generated from contract/src/errors.ts and errorReference.ts', codes });
}

/** Writes every generated file into `outDir` (the client's copy into `clientOutDir`) and returns their names. */
export async function generate(outDir = generatedDir, clientOutDir = clientGeneratedDir) {
  const document = parse(await readFile(specPath, 'utf8'));
  const files = {
    'openapi.ts': await renderTypes(specPath),
    'operations.ts': renderOperations(document),
    'openapi.json': renderJson(document),
    'bff.ts': await renderTypes(bffSpecPath),
    'errorCatalog.json': renderErrorCatalog(),
  };
  await mkdir(outDir, { recursive: true });
  for (const [name, source] of Object.entries(files)) {
    await writeFile(path.join(outDir, name), await format(source, name));
  }
  await mkdir(clientOutDir, { recursive: true });
  await writeFile(path.join(clientOutDir, 'openapi.ts'), await format(files['openapi.ts'], 'openapi.ts'));
  return Object.keys(files);
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  for (const documentPath of [specPath, bffSpecPath]) {
    if (await writeProblemExamples(documentPath)) console.log(`rewrote the problem examples of spec/${path.basename(documentPath)} from the error catalog`);
  }
  const names = await generate();
  console.log(`generated ${names.map((name) => `spec/generated/${name}`).join(', ')}, client/src/generated/openapi.ts`);
}
