/**
 * The BFF's own problems are the API's: every code it answers is in the spec's ErrorCode
 * list and in the one catalog (contract/src/errors.ts, the API's) with the same status and
 * title, and its type URIs are the API's.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { errorCatalog, problemType as apiProblemType } from '@tidewater/contract/errors';
import { bffProblems, problemBody, problemType, type BffErrorCode } from './problem.ts';

const specErrorCodes = (
  JSON.parse(readFileSync(new URL('../../../spec/generated/openapi.json', import.meta.url), 'utf8')) as {
    components: { schemas: { ErrorCode: { enum: string[] } } };
  }
).components.schemas.ErrorCode.enum;

describe('the BFF problem catalog', () => {
  it.each(Object.entries(bffProblems))('%s agrees with the spec and the API catalog', (code, entry) => {
    expect(specErrorCodes).toContain(code);
    expect(errorCatalog[code as BffErrorCode]).toEqual(entry);
    expect(problemType(code as BffErrorCode)).toBe(apiProblemType(code as BffErrorCode));
  });

  it('builds problems without `applied`, with retryAfterSeconds only when given', () => {
    expect(problemBody('SERVICE_UNAVAILABLE', 'trace-1234', 'Down.', 10)).toEqual({
      type: '/docs/problems/service-unavailable',
      title: 'The service is temporarily unavailable',
      status: 503,
      detail: 'Down.',
      errorCode: 'SERVICE_UNAVAILABLE',
      traceId: 'trace-1234',
      retryAfterSeconds: 10,
    });
    expect(problemBody('FORBIDDEN', 'trace-1234')).toEqual({
      type: '/docs/problems/forbidden',
      title: 'Not allowed',
      status: 403,
      errorCode: 'FORBIDDEN',
      traceId: 'trace-1234',
    });
  });
});
