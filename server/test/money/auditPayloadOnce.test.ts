/**
 * The audit payload built once (issue 51, item 6): `post_movement` hashes the canonical JSON
 * of the very payload it stores (`canonical_json`), so the database's spelling is checked
 * against the verifier's own (domain/idempotency/canonicalJson.ts) on hostile text, and
 * `npm run audit:verify` accepts the rows such text leaves.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { canonicalJson } from '../../src/domain/idempotency/canonicalJson.ts';
import { bankOnPostgres, type BankOnPostgres } from '@tidewater/test-support/bankOnPostgres';
import { newKey, outcome, type Customer } from '@tidewater/test-support/bank';
import { query, runAuditVerify } from '@tidewater/test-support/bankDatabase';

/** Text a JSON spelling must escape alike on both sides. */
const hostile = 'Quote " backslash \\ slash / é ß 😀 \u2028 \u00a0 <tag> &amp;';

describe('the audit payload, built once in the database', () => {
  let setup: BankOnPostgres;
  let ada: Customer;

  beforeAll(async () => {
    setup = await bankOnPostgres({ env: { VALIDATE_RESPONSES: '1' } });
    ada = await setup.bank.signUp();
  });
  afterAll(() => setup?.stop());

  it.each([
    ['keys in code-point order at every depth', { b: 1, a: { d: [3, { z: null, y: true }], c: 'x' }, B: false }],
    ['hostile text as a key and a value', { [hostile]: hostile, list: [hostile, '', 0, -1.5] }],
    ['empty object and array', { e: {}, f: [] }],
    ['arrays in arrays, objects in them, at the top', [[1, [hostile, { b: [], a: [[null]] }]], {}, 'é', true]],
    ['a scalar at the top', hostile],
    ['the shape of a movement', { accountId: 'a1', action: 'deposit', ledgerEntryId: 'l1', payload: { kind: 'deposit', amountMinor: '100', description: null }, requestId: null, seq: 7, traceId: null }],
  ])('spells %s as canonicalJson does', async (_name, value) => {
    const [row] = await query<{ text: string }>(setup.url, 'SELECT canonical_json($1::jsonb) AS text', [JSON.stringify(value)]);
    expect(row!.text).toBe(canonicalJson(value));
  });

  it('chains a movement described in hostile text so that audit:verify accepts it', async () => {
    const reply = await setup.bank.deposit(ada, ada.accountId, 4_200, newKey(), hostile);
    expect(outcome(reply)).toEqual([201, null]);
    const [stored] = await query<{ description: string }>(setup.url, "SELECT payload->>'description' AS description FROM audit_rows WHERE account_id = $1 ORDER BY seq DESC LIMIT 1", [ada.accountId]);
    expect(stored!.description).toBe(reply.body.description);
    const verified = await runAuditVerify({ DATABASE_URL: setup.url });
    expect([verified.code, verified.stdout]).toEqual([0, expect.stringMatching(/^audit:verify: intact/)]);
  });
});
