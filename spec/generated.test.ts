/**
 * The committed operations table (generated/operations.ts), read through the package's
 * own export, agrees with spec/openapi.yaml.
 */
import { readFileSync } from 'node:fs';
import { operations, type OperationId } from '@tidewater/spec/operations';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';

const document = parse(readFileSync(new URL('./openapi.yaml', import.meta.url), 'utf8'));

/** Every operation of the document as [operationId, method, path, operation]. */
const documented: [string, string, string, Record<string, unknown>][] = Object.entries(
  document.paths as Record<string, Record<string, Record<string, unknown>>>,
).flatMap(([template, pathItem]) =>
  Object.entries(pathItem).map(([method, operation]): [string, string, string, Record<string, unknown>] => [
    String(operation.operationId),
    method.toUpperCase(),
    template,
    operation,
  ]),
);

/** Operation ids whose table row has `flag` set. */
function flagged(flag: 'moneySend' | 'noDeadline' | 'secured'): string[] {
  return Object.entries(operations)
    .filter(([, row]) => row[flag])
    .map(([operationId]) => operationId)
    .sort();
}

describe('generated operations table', () => {
  it('has exactly the operations of the document', () => {
    expect(Object.keys(operations).sort()).toEqual(documented.map(([operationId]) => operationId).sort());
  });

  it.each(documented)('%s is %s %s', (operationId, method, template) => {
    const row = operations[operationId as OperationId];
    expect(row).toMatchObject({ method, path: template });
    expect(row.expressPath).toBe(template.replace(/\{(\w+)\}/g, ':$1'));
  });

  it('marks the four money sends, and only them', () => {
    expect(flagged('moneySend')).toEqual(
      ['createExternalTransfer', 'createInternalTransfer', 'deposit', 'withdraw'].sort(),
    );
  });

  it('exempts refresh, revoke and logout from the deadline, and only them', () => {
    expect(flagged('noDeadline')).toEqual(['logout', 'refreshToken', 'revokeToken']);
  });

  it('secures every operation but the six public ones', () => {
    const open = ['register', 'createToken', 'refreshToken', 'revokeToken', 'getHealth', 'getReady'];
    expect(flagged('secured')).toEqual(
      Object.keys(operations)
        .filter((id) => !open.includes(id))
        .sort(),
    );
  });
});
