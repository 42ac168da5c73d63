/**
 * Answers a spec scripts with page.route, checked against the contract first: a scripted
 * body the API (spec/openapi.yaml) or the BFF (spec/bff.yaml) could not send fails the
 * spec that scripts it, so no test passes on an answer the stack would never give. The
 * checker is the one the contract tests use (test-support/src/responseValidator.ts).
 */
import { fileURLToPath } from 'node:url';
import type { Page } from '@playwright/test';
import { loadOpenApiDocument, type Node, type OpenApiDocument } from '@tidewater/test-support/openApiDocument';
import { createResponseValidator, type ResponseValidator } from '@tidewater/test-support/responseValidator';

/** Which document declares the operation. */
export type Contract = 'api' | 'bff';

const documents: Record<Contract, string> = {
  api: fileURLToPath(new URL('../../spec/openapi.yaml', import.meta.url)),
  bff: fileURLToPath(new URL('../../spec/bff.yaml', import.meta.url)),
};
const validators = new Map<Contract, ResponseValidator>();
const API_REF = './openapi.yaml#/components/schemas/';

/** Rewrites every `$ref` into the API's document as a local one (bff.yaml borrows the API's schemas). */
function localRefs(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(localRefs);
  if (typeof node !== 'object' || node === null) return node;
  return Object.fromEntries(
    Object.entries(node).map(([key, value]) => [key, key === '$ref' && typeof value === 'string' && value.startsWith(API_REF) ? `#/components/schemas/${value.slice(API_REF.length)}` : localRefs(value)]),
  );
}

/** The document to check against: bff.yaml carries the API's schemas with it (their names do not clash). */
function contractDocument(contract: Contract): OpenApiDocument {
  const document = loadOpenApiDocument(documents[contract]);
  if (contract === 'api') return document;
  const api = loadOpenApiDocument(documents.api);
  const bff = localRefs(document) as OpenApiDocument;
  const components = (bff.components ?? {}) as Node;
  components.schemas = { ...((api.components as Node).schemas as Node), ...((components.schemas as Node | undefined) ?? {}) };
  return { ...bff, components };
}

/** What route.fulfill takes. */
export interface ScriptedAnswer {
  status: number;
  contentType: string;
  headers: Record<string, string>;
  body: string;
}

/** Throws, naming every violation, unless `answer` keeps the contract of `operationId`. */
export function checkScripted(operationId: string, answer: ScriptedAnswer, contract: Contract = 'api'): ScriptedAnswer {
  let validator = validators.get(contract);
  if (!validator) validators.set(contract, (validator = createResponseValidator(contractDocument(contract))));
  const violations = validator.validate(operationId, {
    status: answer.status,
    headers: { 'content-type': answer.contentType, ...answer.headers },
    bodyText: answer.body,
  });
  if (violations.length) throw new Error(`the scripted ${answer.status} of ${operationId} breaks the contract:\n  - ${violations.join('\n  - ')}`);
  return answer;
}

/** A problem+json answer of `operationId`, as the server writes one (a 503 with its Retry-After and no-store), checked. */
export function scriptedProblem(operationId: string, status: number, fields: Record<string, unknown>, contract: Contract = 'api'): ScriptedAnswer {
  const retryAfter = typeof fields.retryAfterSeconds === 'number' ? String(fields.retryAfterSeconds) : undefined;
  const headers: Record<string, string> = status === 503 ? { 'Retry-After': retryAfter ?? '10', 'Cache-Control': 'no-store' } : {};
  const body = { type: '/problems/scripted', title: 'Scripted by the e2e suite', status, traceId: 'e2e-scripted', ...fields };
  return checkScripted(operationId, { status, contentType: 'application/problem+json', headers, body: JSON.stringify(body) }, contract);
}

/** A JSON success of `operationId`, checked. */
export function scriptedJson(operationId: string, status: number, body: unknown, contract: Contract = 'api'): ScriptedAnswer {
  return checkScripted(operationId, { status, contentType: 'application/json', headers: {}, body: JSON.stringify(body) }, contract);
}

/** A payee the stack does not have, whose name the bank matches as `displayName` (confirmation of payee is a read before the PIN). */
export async function scriptPayee(page: Page, handle: string, displayName: string): Promise<void> {
  await page.route(`**/api/payees/${handle}?*`, (route) => route.fulfill(scriptedJson('getPayee', 200, { result: 'match', name: displayName })));
}
