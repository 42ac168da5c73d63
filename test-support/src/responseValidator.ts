/**
 * Checks one HTTP answer against what the spec declares for its operation and status:
 * the status is declared; every required header is present and each declared header
 * fits its schema; the content type is one declared (problem+json is not JSON); the
 * body fits the schema (JSON Schema 2020-12 through AJV, formats checked, `$ref`s
 * resolved where the schema stands in the document); a response that declares no
 * content (204) has no body.
 *
 * Answers the list of violations: empty means the answer keeps the contract.
 */
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormatsPlugin from 'ajv-formats';
import { nodeAt, resolved, type Node, type OpenApiDocument } from './openApiDocument.ts';

/** An answer to check: from `fetch` or made by hand in a test. */
export interface ResponseToCheck {
  status: number;
  headers: Headers | Record<string, string>;
  /** The raw body text ('' for none). */
  bodyText: string;
}

/** Checks answers against one document. */
export interface ResponseValidator {
  validate(operationId: string, response: ResponseToCheck): string[];
}

const DOCUMENT_ID = 'urn:tidewater:openapi';
const addFormats = addFormatsPlugin as unknown as (ajv: Ajv2020) => Ajv2020;

/** OpenAPI's numeric formats, which JSON Schema does not define. */
const OPENAPI_FORMATS: Record<string, { type: 'number'; validate: (n: number) => boolean }> = {
  int32: { type: 'number', validate: (n) => Number.isInteger(n) && n >= -(2 ** 31) && n < 2 ** 31 },
  int64: { type: 'number', validate: (n) => Number.isSafeInteger(n) },
  float: { type: 'number', validate: Number.isFinite },
  double: { type: 'number', validate: Number.isFinite },
};

const isJson = (mediaType: string) => /^application\/([\w.+-]+\+)?json$/.test(mediaType);
const mediaTypeOf = (contentType: string) => contentType.split(';')[0]!.trim().toLowerCase();

/** A header's value as its schema types it (headers are text on the wire). */
function typedHeader(text: string, schema: Node): unknown {
  const type = schema.type;
  if ((type === 'integer' || type === 'number') && /^-?\d+(\.\d+)?$/.test(text.trim())) return Number(text);
  return text;
}

/** Builds a validator for `document` (the whole document is one AJV schema, so every pointer resolves). */
export function createResponseValidator(document: OpenApiDocument): ResponseValidator {
  const ajv = new Ajv2020({ strict: false, allErrors: true, validateFormats: true });
  addFormats(ajv);
  for (const [name, format] of Object.entries(OPENAPI_FORMATS)) ajv.addFormat(name, format);
  ajv.addSchema({ ...document, $id: DOCUMENT_ID });
  const compiled = new Map<string, ValidateFunction>();
  const validatorAt = (pointer: string) => {
    let validate = compiled.get(pointer);
    if (!validate) compiled.set(pointer, (validate = ajv.compile({ $ref: `${DOCUMENT_ID}${pointer}` })));
    return validate;
  };
  const check = (pointer: string, value: unknown, what: string): string[] => {
    const validate = validatorAt(pointer);
    if (validate(value)) return [];
    return (validate.errors ?? []).map((e) => `${what}${e.instancePath} ${e.message}${e.params ? ` ${JSON.stringify(e.params)}` : ''}`);
  };

  const operations = new Map<string, string>();
  for (const [path, pathItem] of Object.entries(document.paths)) {
    for (const [method, operation] of Object.entries(pathItem)) {
      const id = (operation as Node | undefined)?.operationId;
      if (typeof id === 'string') operations.set(id, `#/paths/${path.replaceAll('~', '~0').replaceAll('/', '~1')}/${method}`);
    }
  }

  return {
    validate(operationId, response) {
      const operationPointer = operations.get(operationId);
      if (!operationPointer) return [`the spec has no operation "${operationId}"`];
      const responses = (nodeAt(document, operationPointer).responses ?? {}) as Record<string, Node>;
      const status = String(response.status);
      const key = [status, `${status[0]}XX`, 'default'].find((k) => k in responses);
      if (!key) return [`status ${status} is not declared for ${operationId} (it declares ${Object.keys(responses).join(', ')})`];
      const { node: declared, pointer } = resolved(document, responses[key]!, `${operationPointer}/responses/${key}`);
      const headers = response.headers instanceof Headers ? response.headers : new Headers(response.headers);
      const problems: string[] = [];

      for (const [name, raw] of Object.entries((declared.headers ?? {}) as Record<string, Node>)) {
        const { node: header, pointer: headerPointer } = resolved(document, raw, `${pointer}/headers/${name}`);
        const text = headers.get(name);
        if (text === null) {
          if (header.required === true) problems.push(`header ${name} is required and missing`);
          continue;
        }
        if (header.schema) problems.push(...check(`${headerPointer}/schema`, typedHeader(text, header.schema as Node), `header ${name}`));
      }

      const content = (declared.content ?? {}) as Record<string, Node>;
      const declaredTypes = Object.keys(content);
      if (declaredTypes.length === 0) {
        if (response.bodyText.length > 0) problems.push(`${status} declares no body, got ${response.bodyText.length} bytes`);
        return problems;
      }
      const mediaType = mediaTypeOf(headers.get('content-type') ?? '');
      const match = declaredTypes.find((type) => type.toLowerCase() === mediaType);
      if (!match) return [...problems, `content type "${mediaType}" is not declared (declared: ${declaredTypes.join(', ')})`];
      if (!content[match]!.schema) return problems;
      let body: unknown = response.bodyText;
      if (isJson(match)) {
        try {
          body = JSON.parse(response.bodyText);
        } catch {
          return [...problems, `the body is not JSON: ${JSON.stringify(response.bodyText.slice(0, 80))}`];
        }
      }
      const escaped = match.replaceAll('~', '~0').replaceAll('/', '~1');
      return [...problems, ...check(`${pointer}/content/${escaped}/schema`, body, 'body')];
    },
  };
}
