/**
 * The sandbox's table (the introduction's "Sandbox: the failure paths on purpose"), walked row
 * by row on a deposit × {an existing account, a missing one} against a sandbox API on
 * PostgreSQL (issue 53, item 6): the first answer, the money (from the ledger) and what the
 * same key again answers, followed within the waits the answers name. A missing account is a
 * send the bank refuses (`404 ACCOUNT_NOT_FOUND`): every simulation must end in that refusal,
 * stored under the key, never in a wait that does not end.
 */
import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';
import { parse } from 'yaml';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { query } from '@tidewater/test-support/bankDatabase';
import { bankOnPostgres, type BankOnPostgres } from '@tidewater/test-support/bankOnPostgres';
import type { Customer } from '@tidewater/test-support/bank';
import { call, type Reply } from '@tidewater/test-support/httpClient';

const spec = parse(readFileSync(new URL('../spec/openapi.yaml', import.meta.url), 'utf8'));
const simulations: string[] = spec.components.parameters.Simulate.schema.enum;

/** Each row of the table: the first answer, whether money moves, and the final answer of the same key again. */
const table: Record<string, { first: [number, string, boolean | undefined]; moves: boolean }> = {
  'unavailable-not-applied': { first: [503, 'SERVICE_UNAVAILABLE', false], moves: false },
  'unavailable-unknown-landed': { first: [503, 'SERVICE_UNAVAILABLE', undefined], moves: true },
  'unavailable-unknown-not-landed': { first: [503, 'SERVICE_UNAVAILABLE', undefined], moves: false },
  'in-flight': { first: [409, 'IDEMPOTENCY_IN_FLIGHT', undefined], moves: false },
  'result-unknown': { first: [409, 'IDEMPOTENCY_RESULT_UNKNOWN', true], moves: true },
  busy: { first: [503, 'SERVICE_UNAVAILABLE', false], moves: false },
};

let setup: BankOnPostgres;
let ada: Customer;

beforeAll(async () => {
  setup = await bankOnPostgres({ env: { API_SANDBOX: 'true', DB_RETRY_MAX_DELAY_MS: '1000' } });
  ada = await setup.bank.signUp();
});
afterAll(() => setup?.stop());

function deposit(accountId: string, key: string, simulate?: string): Promise<Reply> {
  return call(setup.api.url, 'POST', `/api/accounts/${accountId}/deposits`, { token: ada.token, body: { amountMinor: 1_00 }, headers: { 'idempotency-key': key, ...(simulate ? { 'tidewater-simulate': simulate } : {}) } });
}

/** The same key again, waiting each `Retry-After`, until an answer other than 503 or 409 IN_FLIGHT (at most 12 s). */
async function sameKeyUntilKnown(accountId: string, key: string): Promise<Reply> {
  const giveUpAt = Date.now() + 12_000;
  for (;;) {
    const reply = await deposit(accountId, key);
    const waiting = reply.status === 503 || (reply.status === 409 && reply.body.errorCode === 'IDEMPOTENCY_IN_FLIGHT');
    if (!waiting || Date.now() > giveUpAt) return reply;
    await sleep(Number(reply.headers.get('retry-after') ?? 1) * 1000);
  }
}

const movedUnder = async (key: string) => (await query(setup.url, 'SELECT 1 FROM ledger_entries WHERE idempotency_key = $1', [key])).length;

describe('the sandbox table', () => {
  it('has a row here for every simulation the spec names', () => {
    expect(Object.keys(table).sort()).toEqual([...simulations].sort());
  });

  describe.each(simulations)('%s', (simulation) => {
    const row = table[simulation]!;

    it('on an existing account: its first answer, its money, then the same key ends as the table says', async () => {
      const key = randomUUID();
      const first = await deposit(ada.accountId, key, simulation);
      expect([first.status, first.body.errorCode, first.body.applied]).toEqual(row.first);
      expect(await movedUnder(key)).toBe(row.moves ? 1 : 0);
      const last = await sameKeyUntilKnown(ada.accountId, key);
      if (simulation === 'result-unknown') expect([last.status, last.body.errorCode]).toEqual([409, 'IDEMPOTENCY_RESULT_UNKNOWN']);
      else expect(last.status).toBe(201);
      expect(await movedUnder(key)).toBe(1);
    });

    it('on a missing account: its first answer, no money, then the same key ends in the stored 404', async () => {
      const key = randomUUID();
      const missing = randomUUID();
      const first = await deposit(missing, key, simulation);
      expect([503, 409, 404]).toContain(first.status);
      const last = await sameKeyUntilKnown(missing, key);
      expect([last.status, last.body.errorCode]).toEqual([404, 'ACCOUNT_NOT_FOUND']);
      const again = await deposit(missing, key);
      expect([again.status, again.headers.get('idempotent-replayed')]).toEqual([404, 'true']);
      expect(await movedUnder(key)).toBe(0);
    });
  });
});
