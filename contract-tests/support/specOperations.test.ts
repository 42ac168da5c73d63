/**
 * Reading operations from the spec and building requests from its examples: every
 * operation is found (and agrees with the generated operations table), every one can be
 * built, values are substituted by name, and a spec without the examples fails loudly.
 */
import { describe, expect, it } from 'vitest';
import { operations as generated } from '../../spec/generated/operations.ts';
import { callerValues, newIdentity, type Customer } from './callerValues.ts';
import { loadOpenApiDocument, type OpenApiDocument } from '@tidewater/test-support/openApiDocument';
import { buildRequest, MissingExamples, operationById, specOperations } from './specOperations.ts';

const document = loadOpenApiDocument();
const operations = specOperations(document);
const customer: Customer = {
  ...newIdentity(),
  userId: '00000000-0000-4000-8000-000000000001',
  accessToken: 'access-token',
  primaryAccountId: '00000000-0000-4000-8000-00000000000a',
  secondAccountId: '00000000-0000-4000-8000-00000000000b',
};
const values = () => callerValues({ identity: customer, customer, mint: async (_c, _op, field) => `minted-${field}` });

describe('specOperations', () => {
  it('finds every operation the generated table knows, with the same method, path and flags', () => {
    const read = Object.fromEntries(operations.map((o) => [o.operationId, { method: o.method, path: o.path, moneySend: o.moneySend, noDeadline: o.noDeadline, secured: o.secured }]));
    const table = Object.fromEntries(
      Object.entries(generated).map(([id, o]) => [id, { method: o.method, path: o.path, moneySend: o.moneySend, noDeadline: o.noDeadline, secured: o.secured }]),
    );
    expect(read).toEqual(table);
  });

  it('declares 503 and 499 on every operation (the outage matrix relies on it)', () => {
    for (const operation of operations) expect(operation.statuses, operation.operationId).toEqual(expect.arrayContaining(['503', '499']));
  });

  it.each(operations.map((o) => [o.operationId, o] as const))('builds a request for %s', async (_id, operation) => {
    const request = await buildRequest(operation, values());
    expect(request.target).not.toMatch(/[{}]/);
    if (operation.secured) expect(request.headers.Authorization).toBe('Bearer access-token');
    if (operation.body) expect(() => JSON.parse(request.body!)).not.toThrow();
  });

  it('substitutes the caller’s values by name and mints single-use ones', async () => {
    const deposit = await buildRequest(operationById(operations, 'deposit'), values());
    expect(deposit.target).toBe(`/api/accounts/${customer.primaryAccountId}/deposits`);
    const transfer = JSON.parse((await buildRequest(operationById(operations, 'createInternalTransfer'), values())).body!);
    expect(transfer).toMatchObject({ fromAccountId: customer.primaryAccountId, toAccountId: customer.secondAccountId });
    const refresh = JSON.parse((await buildRequest(operationById(operations, 'refreshToken'), values())).body!);
    expect(refresh).toEqual({ refreshToken: 'minted-refreshToken' });
    const signIn = JSON.parse((await buildRequest(operationById(operations, 'createToken'), values())).body!);
    expect(signIn).toEqual({ email: customer.email, password: customer.password });
  });

  it('sends a fresh Idempotency-Key with every request', async () => {
    const deposit = operationById(operations, 'deposit');
    const [first, second] = await Promise.all([buildRequest(deposit, values()), buildRequest(deposit, values())]);
    expect(first.headers['Idempotency-Key']).toMatch(/^[A-Za-z0-9_-]{8,64}$/);
    expect(first.headers['Idempotency-Key']).not.toBe(second.headers['Idempotency-Key']);
  });

  it('keeps the example and says so when a single-use value cannot be minted', async () => {
    const lenient = callerValues({ identity: customer, customer, mint: async () => undefined });
    const withdraw = JSON.parse((await buildRequest(operationById(operations, 'withdraw'), lenient)).body!);
    expect(withdraw.authorizationId).toBe('c2b1a0f9-8e7d-4c6b-a5f4-e3d2c1b0a9f8');
    expect(lenient.notes).toEqual(['authorizationId: the example (verifyPin gave none)']);
  });

  it('fails loudly, naming the operation, when the spec lacks an example a valid request needs', () => {
    const doctored = structuredClone(document) as OpenApiDocument;
    const paths = doctored.paths as Record<string, Record<string, Record<string, unknown>>>;
    delete (paths['/api/auth/token']!.post!.requestBody as { content: Record<string, Record<string, unknown>> }).content['application/json']!.example;
    (paths['/api/accounts/{accountId}']!.get!.parameters as unknown[]) = [{ name: 'accountId', in: 'path', required: true, schema: { type: 'string' } }];
    expect(() => specOperations(doctored)).toThrow(MissingExamples);
    expect(() => specOperations(doctored)).toThrow(/createToken: its required application\/json body has no example[\s\S]*getAccount: required path parameter "accountId" has no example/);
  });
});
