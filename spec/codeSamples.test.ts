/**
 * The docs' code samples are made from the document's own examples (scripts/codeSamples.mjs):
 * every operation gets a curl and a TypeScript sample; a money send's carries a fresh
 * Idempotency-Key and its example body; a secured operation sends the bearer token, a
 * public one does not.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { withCodeSamples } from './scripts/codeSamples.mjs';

const document = parse(readFileSync(new URL('./openapi.yaml', import.meta.url), 'utf8'));
const samples = withCodeSamples(document);
const operations = Object.values(samples.paths as Record<string, Record<string, { operationId?: string; 'x-codeSamples'?: Array<{ lang: string; source: string }> }>>)
  .flatMap((item) => Object.values(item))
  .filter((operation) => typeof operation === 'object' && operation.operationId);
const sampleOf = (operationId: string, lang: string) =>
  operations.find((operation) => operation.operationId === operationId)!['x-codeSamples']!.find((sample) => sample.lang === lang)!.source;

describe('the code samples', () => {
  it('give every operation a curl and a TypeScript sample, and leave the document itself alone', () => {
    expect(operations.length).toBeGreaterThanOrEqual(21);
    for (const operation of operations) expect(operation['x-codeSamples']!.map((sample) => sample.lang), operation.operationId).toEqual(['Shell', 'TypeScript']);
    expect(JSON.stringify(document)).not.toContain('x-codeSamples');
  });

  it("send a money send's example body under a fresh key, with the bearer token", () => {
    const curl = sampleOf('deposit', 'Shell');
    expect(curl).toContain('"$API/api/accounts/3f1c2a9e-6b7d-4c1e-9a3b-2f5e8d7c6b1a/deposits"');
    expect(curl).toContain(`-d '{"amountMinor":2500,"description":"Birthday money"}'`);
    expect(curl).toContain('-H "idempotency-key: $(uuidgen)"');
    expect(curl).toContain('-H "authorization: Bearer $TOKEN"');
    const typescript = sampleOf('deposit', 'TypeScript');
    expect(typescript).toContain("import { createTidewaterClient, moneySend } from '@tidewater/client';");
    expect(typescript).toContain("const result = await moneySend(api, {\n  path: '/api/accounts/{accountId}/deposits',");
    expect(typescript).toContain('"accountId": "3f1c2a9e-6b7d-4c1e-9a3b-2f5e8d7c6b1a"');
    expect(typescript).toContain("accessToken: () => accessToken");
    // moneySend makes and keeps the key: the sample makes none of its own.
    expect(typescript).not.toContain('randomUUID');
  });

  it("call any other operation on the client, an account's opening under a key of its own", () => {
    const opening = sampleOf('openAccount', 'TypeScript');
    expect(opening).toContain("api.POST('/api/accounts'");
    expect(opening).toContain('const idempotencyKey = crypto.randomUUID();');
    expect(opening).toContain("header: { 'Idempotency-Key': idempotencyKey }");
    expect(sampleOf('register', 'TypeScript')).toContain("createTidewaterClient({ baseUrl: 'http://localhost:8081' });");
  });

  it('send no token for a public operation, and a required query parameter from its example', () => {
    expect(sampleOf('register', 'Shell')).not.toContain('authorization');
    expect(sampleOf('listTransactions', 'Shell')).toContain('/api/transactions?accountId=3f1c2a9e-6b7d-4c1e-9a3b-2f5e8d7c6b1a"');
  });
});
