/**
 * spec/openapi.yaml keeps the contract other workspaces code against: the operations
 * (ids, methods, paths), the one list of error codes, the responses every operation
 * declares, and the JSON copy in generated/.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';

type Operation = Record<string, unknown> & { responses: Record<string, unknown>; security?: unknown[] };

const document = parse(readFileSync(new URL('./openapi.yaml', import.meta.url), 'utf8'));
const operationsById = new Map<string, { method: string; path: string; operation: Operation }>(
  Object.entries(document.paths as Record<string, Record<string, Operation>>).flatMap(([path, item]) =>
    Object.entries(item).map(([method, operation]) => [
      String(operation.operationId),
      { method: method.toUpperCase(), path, operation },
    ]),
  ),
);

/** The contract: [operationId, method, path]. */
const CONTRACT: [string, string, string][] = [
  ['register', 'POST', '/api/auth/register'],
  ['createToken', 'POST', '/api/auth/token'],
  ['refreshToken', 'POST', '/api/auth/refresh'],
  ['revokeToken', 'POST', '/api/auth/revoke'],
  ['logout', 'POST', '/api/auth/logout'],
  ['getMe', 'GET', '/api/me'],
  ['listAccounts', 'GET', '/api/accounts'],
  ['openAccount', 'POST', '/api/accounts'],
  ['getAccount', 'GET', '/api/accounts/{accountId}'],
  ['renameAccount', 'PATCH', '/api/accounts/{accountId}'],
  ['closeAccount', 'POST', '/api/accounts/{accountId}/close'],
  ['setPrimaryAccount', 'POST', '/api/accounts/{accountId}/primary'],
  ['verifyPin', 'POST', '/api/step-up'],
  ['deposit', 'POST', '/api/accounts/{accountId}/deposits'],
  ['withdraw', 'POST', '/api/accounts/{accountId}/withdrawals'],
  ['createInternalTransfer', 'POST', '/api/transfers/internal'],
  ['createExternalTransfer', 'POST', '/api/transfers/external'],
  ['getPayee', 'GET', '/api/payees/{handle}'],
  ['listSavedPayees', 'GET', '/api/saved-payees'],
  ['listTransactions', 'GET', '/api/transactions'],
  ['getStatement', 'GET', '/api/accounts/{accountId}/statements/{month}'],
  ['getIdempotencyKey', 'GET', '/api/idempotency-keys/{key}'],
  ['listIdempotencyKeys', 'GET', '/api/idempotency-keys'],
  ['getTransfer', 'GET', '/api/transfers/{transferId}'],
  ['getHealth', 'GET', '/api/health'],
  ['getReady', 'GET', '/api/ready'],
];
const PUBLIC = ['register', 'createToken', 'refreshToken', 'revokeToken', 'getHealth', 'getReady'];
/** The contract's one list of error codes (adr/0001); the server's catalog is checked against the spec. */
const ERROR_CODES = [
  ...['VALIDATION_FAILED', 'MALFORMED_JSON', 'PAYLOAD_TOO_LARGE', 'UNSUPPORTED_MEDIA_TYPE', 'HEADERS_TOO_LARGE'],
  ...['IDEMPOTENCY_KEY_MISSING', 'UNAUTHENTICATED', 'INVALID_CREDENTIALS', 'TOKEN_INVALID'],
  ...['AUTHORIZATION_INVALID', 'AUTHORIZATION_EXPIRED', 'AUTHORIZATION_MISMATCH', 'PIN_INCORRECT', 'PIN_LOCKED', 'PIN_BLOCKED', 'FORBIDDEN'],
  ...['NOT_FOUND', 'ACCOUNT_NOT_FOUND', 'PAYEE_NOT_FOUND', 'METHOD_NOT_ALLOWED', 'EMAIL_TAKEN'],
  ...['HANDLE_TAKEN', 'IDEMPOTENCY_IN_FLIGHT', 'IDEMPOTENCY_RESULT_UNKNOWN', 'IDEMPOTENCY_KEY_REUSED'],
  ...['INSUFFICIENT_FUNDS', 'BALANCE_LIMIT_EXCEEDED', 'DAILY_LIMIT_EXCEEDED', 'INVALID_IBAN', 'SAME_ACCOUNT', 'ACCOUNT_CLOSED'],
  ...['ACCOUNT_NOT_EMPTY', 'ACCOUNT_IS_PRIMARY', 'PAYEE_HAS_NO_OPEN_ACCOUNT', 'ACCOUNT_LIMIT_REACHED', 'TOO_MANY_REQUESTS'],
  ...['CLIENT_CLOSED_REQUEST', 'INTERNAL', 'SERVICE_UNAVAILABLE'],
];
const TAGS = ['auth', 'accounts', 'step-up', 'money', 'transactions', 'idempotency', 'health'];

describe('spec/openapi.yaml', () => {
  // adr/0006 and adr/0011: x-no-deadline ignores a hang-up; the deadline's clock still bounds it.
  it('says what x-no-deadline does: a hang-up does not cancel it, the request deadline still bounds it', () => {
    const exempt = [...operationsById].filter(([, { operation }]) => operation['x-no-deadline'] === true);
    expect(exempt.map(([id]) => id).sort()).toEqual(['logout', 'refreshToken', 'revokeToken']);
    for (const [id, { operation }] of exempt) {
      const description = String(operation.description).replace(/\s+/g, ' ');
      expect(description, id).not.toMatch(/exempt from the request deadline/i);
      expect(description, id).toMatch(/A hang-up does not cancel it \(`x-no-deadline`\); the request deadline still bounds it/);
    }
    expect(String(document.info.description).replace(/\s+/g, ' ')).toMatch(/The request deadline's clock still bounds it/);
  });

  // adr/0012: one rule for text a customer writes, read as the validator (AJV, the u flag) reads it.
  const textPattern = new RegExp(document.components.schemas.Text.pattern, 'u');
  it.each([
    ['a plain name', 'Savings', true],
    ['accents and an emoji', 'Épargne 🏖️ für später', true],
    ['inner spaces', 'Rainy  day', true],
    ['one character', 'A', true],
    ['a NUL', 'Sav\u0000ings', false],
    ['another control character', 'tab\there', false],
    ['blank', '   ', false],
    ['a no-break space and a space', '\u00a0 ', false],
    ['spaces around it (removed when stored)', ' Savings  ', true],
    ['a tab around it', '\tSavings', false],
    ['empty', '', false],
  ])('the Text rule on %s: %s', (_name, text, accepted) => {
    expect(textPattern.test(text)).toBe(accepted);
  });

  it('has exactly the contract operations', () => {
    expect([...operationsById.keys()].sort()).toEqual(CONTRACT.map(([id]) => id).sort());
  });

  it.each(CONTRACT)('%s is %s %s, documented and tagged', (operationId, method, path) => {
    const found = operationsById.get(operationId)!;
    expect({ method: found.method, path: found.path }).toEqual({ method, path });
    expect(found.operation.summary).toBeTruthy();
    expect(found.operation.description).toBeTruthy();
    expect(TAGS).toEqual(expect.arrayContaining(found.operation.tags as string[]));
  });

  it.each(CONTRACT)('%s declares the responses the contract requires', (operationId) => {
    const { operation } = operationsById.get(operationId)!;
    const statuses = Object.keys(operation.responses);
    const secured = !PUBLIC.includes(operationId);
    const moneySend = operation['x-money-send'] === true;
    expect(statuses).toEqual(expect.arrayContaining(['400', '499', '500', '503']));
    if (secured) expect(statuses).toContain('401');
    if (moneySend) expect(statuses).toEqual(expect.arrayContaining(['409', '422']));
    expect(statuses).not.toContain('501'); // every operation is built
    expect(operation.security).toEqual(secured ? undefined : []);
  });

  it('lists exactly the error codes of the design, in order', () => {
    expect(document.components.schemas.ErrorCode.enum).toEqual(ERROR_CODES);
  });

  it("shows cursors in the shape the API gives them out (a signed position), and says an example is only a shape", () => {
    const cursor = document.components.parameters.Cursor;
    const transactionPage = document.components.examples;
    const examples = [cursor.example, ...Object.values(transactionPage as Record<string, { value?: { nextCursor?: unknown } }>).map((example) => example.value?.nextCursor).filter((value) => typeof value === 'string')];
    expect(examples.length).toBeGreaterThanOrEqual(2);
    for (const example of examples) {
      const [payload, signature, ...rest] = String(example).split('.');
      expect([rest, signature]).toEqual([[], expect.stringMatching(/^[A-Za-z0-9_-]{22}$/)]);
      const [at, id] = JSON.parse(Buffer.from(payload!, 'base64url').toString('utf8'));
      expect([new Date(at).toISOString(), id]).toEqual([at, expect.stringMatching(/^[0-9a-f-]{36}$/)]);
    }
    expect(cursor.description.replace(/\s+/g, ' ')).toContain('the example only shows its shape: every customer\'s request with it is refused');
  });

  it('is copied whole into generated/openapi.json', () => {
    const json = JSON.parse(readFileSync(new URL('./generated/openapi.json', import.meta.url), 'utf8'));
    expect(Object.keys(json)[0]).toBe('x-generated');
    const { 'x-generated': _marker, ...copy } = json;
    expect(copy).toEqual(document);
  });
});
