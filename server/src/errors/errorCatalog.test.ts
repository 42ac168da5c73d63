import { describe, expect, it } from 'vitest';
import { catalogDisagreements, declaredErrorCodes } from '@tidewater/spec/errorCodes';
import spec from '@tidewater/spec/openapi.json' with { type: 'json' };
import { errorCatalog } from './errorCatalog.ts';

/**
 * Answered outside any operation, so no operation declares them: a path or method the spec
 * does not have; headers too large for Node to parse the request at all.
 */
const outsideOperations = new Set(['METHOD_NOT_ALLOWED', 'HEADERS_TOO_LARGE']);

describe('the error catalog and the spec', () => {
  const specCodes = (spec.components.schemas.ErrorCode as unknown as { enum: string[] }).enum;
  const catalogCodes = Object.keys(errorCatalog);

  it('name the same codes in both directions', () => {
    expect(catalogCodes.filter((code) => !specCodes.includes(code))).toEqual([]);
    expect(specCodes.filter((code) => !catalogCodes.includes(code))).toEqual([]);
  });

  it('declare each code only at a status an operation of the spec can answer', () => {
    const declaredStatuses = new Set<number>();
    for (const item of Object.values(spec.paths) as Array<
      Record<string, { responses?: Record<string, unknown> }>
    >) {
      for (const operation of Object.values(item)) {
        for (const status of Object.keys(operation.responses ?? {})) declaredStatuses.add(Number(status));
      }
    }
    const undeclared = Object.entries(errorCatalog).filter(
      ([code, entry]) => !outsideOperations.has(code) && !declaredStatuses.has(entry.status),
    );
    expect(undeclared).toEqual([]);
  });

  it("agree on each code's status operation by operation, in both directions", () => {
    const operations = declaredErrorCodes(spec as unknown as Record<string, unknown>, new Set(specCodes));
    expect(operations.length).toBe(Object.values(spec.paths).flatMap((item) => Object.keys(item)).length);
    expect(catalogDisagreements(operations, errorCatalog, outsideOperations)).toEqual([]);
  });

  it('state the status of each code answered outside any operation in the description', () => {
    const stated = new Map(
      [...spec.info.description.matchAll(/(\d{3}) `([A-Z_]+)`/g)].map((match) => [
        match[2],
        Number(match[1]),
      ]),
    );
    for (const code of outsideOperations)
      expect([code, stated.get(code)]).toEqual([
        code,
        errorCatalog[code as keyof typeof errorCatalog].status,
      ]);
  });
});
