/**
 * The money rules live in one place, the database (adr/0041), over real HTTP on PostgreSQL:
 *
 * - a rule changed there changes what the API answers, with nothing in TypeScript to
 *   disagree: a `money_send` that names a refusal is worded exactly as the catalog words it,
 *   the money stays where it was (read from the database), a 404/422 is stored as the key's
 *   answer and a 401/403 is not;
 * - opening accounts is bounded (MAX_OPEN_ACCOUNTS_PER_CUSTOMER, here 3): one more is
 *   422 ACCOUNT_LIMIT_REACHED, with a key or without, also under parallel openings.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bankOnPostgres, type BankOnPostgres } from '@tidewater/test-support/bankOnPostgres';
import { call } from '@tidewater/test-support/httpClient';
import { newKey, outcome, type Bank, type Customer } from '@tidewater/test-support/bank';
import { keyState, query, untilKeyReleased } from '@tidewater/test-support/bankDatabase';

const MAX_OPEN = 3;

describe('money rules in the database, on PostgreSQL', () => {
  let setup: BankOnPostgres;
  let url: string;
  let b: Bank;

  beforeAll(async () => {
    setup = await bankOnPostgres({ env: { VALIDATE_RESPONSES: '1', MAX_OPEN_ACCOUNTS_PER_CUSTOMER: String(MAX_OPEN), DAILY_SEND_LIMIT_MINOR: '10000' } });
    ({ url, bank: b } = setup);
  });
  afterAll(() => setup?.stop());

  const balanceOf = async (accountId: string) =>
    Number((await query<{ b: string }>(url, 'SELECT balance_minor::text AS b FROM accounts WHERE id = $1', [accountId]))[0]!.b);
  const open = (customer: Customer, name: string, key?: string) =>
    call(setup.api.url, 'POST', '/api/accounts', { token: customer.token, body: { name }, headers: key ? { 'idempotency-key': key } : {} });
  const openCount = async (customer: Customer) =>
    Number((await query<{ n: string }>(url, "SELECT count(*)::text AS n FROM accounts WHERE user_id = $1 AND status = 'open'", [customer.userId]))[0]!.n);

  describe('a refusal the database names', () => {
    /**
     * Makes `money_send` answer the verdict in `forced_verdict` when it holds one, else run
     * its rules as migrated (kept as `money_send_as_migrated`): the rule changed in the database only.
     */
    beforeAll(async () => {
      const def = (await query<{ def: string }>(url, "SELECT pg_get_functiondef('money_send'::regproc) AS def"))[0]!.def;
      await query(url, def.replace(/FUNCTION public\.money_send\(/, 'FUNCTION public.money_send_as_migrated('));
      await query(url, 'CREATE TABLE forced_verdict (verdict text NOT NULL, detail jsonb)');
      const args = (await query<{ args: string }>(url, "SELECT pg_get_function_arguments('money_send'::regproc) AS args"))[0]!.args;
      const names = [...args.matchAll(/(?:^|, )(p_\w+) /g)].map((m) => m[1]);
      await query(url, `
        CREATE OR REPLACE FUNCTION money_send(${args}) LANGUAGE plpgsql AS $$
        BEGIN
          SELECT f.verdict, NULL, f.detail INTO verdict, body, detail FROM forced_verdict f;
          IF NOT FOUND THEN
            SELECT m.verdict, m.body, m.detail INTO verdict, body, detail FROM money_send_as_migrated(${names.join(', ')}) m;
          END IF;
        END $$`);
    });

    it.each([
      ['ACCOUNT_NOT_FOUND', null, 404, 'No open account of yours has this id.'],
      ['PAYEE_HAS_NO_OPEN_ACCOUNT', null, 422, 'The payee has no open account to receive the money.'],
      ['INSUFFICIENT_FUNDS', null, 422, 'The account does not hold enough money for this.'],
      ['BALANCE_LIMIT_EXCEEDED', null, 422, 'The receiving account cannot hold that much more money.'],
      ['DAILY_LIMIT_EXCEEDED', { limitMinor: 10_000, leftMinor: 2_505 }, 422, 'Money leaving your accounts is limited to 100.00 EUR a day; 25.05 EUR are left today.'],
      ['AUTHORIZATION_INVALID', null, 401, 'The step-up authorisation is unknown or already used; check the PIN again.'],
      ['AUTHORIZATION_EXPIRED', null, 401, 'The step-up authorisation has expired; check the PIN again.'],
      ['AUTHORIZATION_MISMATCH', null, 403, 'The step-up authorisation approves another payment (its account, amount or payee differ); check the PIN for this one. Nothing moved.'],
    ])('words %s as the catalog does, moves nothing, and stores it only when it is final', async (code, detail, status, words) => {
      const ada = await b.signUp();
      expect((await b.deposit(ada, ada.accountId, 1_000)).status).toBe(201);
      await query(url, 'INSERT INTO forced_verdict VALUES ($1, $2)', [code, detail === null ? null : JSON.stringify(detail)]);
      try {
        const key = newKey();
        const reply = await b.deposit(ada, ada.accountId, 300, key);
        expect(outcome(reply)).toEqual([status, code]);
        expect(reply.body.detail).toBe(words);
        expect(await balanceOf(ada.accountId)).toBe(1_000);
        // A final refusal (404, 422) is the key's answer for good; a step-up to redo (401, 403) frees the key.
        const final = status === 404 || status === 422;
        const state = final ? await keyState(url, key) : await untilKeyReleased(url, key);
        expect(state.ledger).toEqual([]);
        expect(state.records.map((r) => r.status)).toEqual(final ? ['Executed'] : []);
      } finally {
        await query(url, 'DELETE FROM forced_verdict');
      }
    });

    it('moves the money when the database allows it', async () => {
      const ada = await b.signUp();
      expect((await b.deposit(ada, ada.accountId, 1_000)).status).toBe(201);
      expect(await balanceOf(ada.accountId)).toBe(1_000);
    });
  });

  describe('open accounts per customer', () => {
    it('refuses one account more than the bound, with a key (stored, replayed) or without, until one is closed', async () => {
      const ada = await b.signUp();
      expect((await open(ada, 'Second', newKey())).status).toBe(201);
      const third = await open(ada, 'Third');
      expect(third.status).toBe(201);
      const key = newKey();
      const refused = await open(ada, 'Fourth', key);
      expect(outcome(refused)).toEqual([422, 'ACCOUNT_LIMIT_REACHED']);
      expect(refused.body.detail).toBe(`A customer may hold at most ${MAX_OPEN} open accounts; close one to open another.`);
      const replayed = await open(ada, 'Fourth', key);
      expect(replayed.headers.get('idempotent-replayed')).toBe('true');
      expect(replayed.body).toEqual(refused.body);
      expect(outcome(await open(ada, 'Fourth'))).toEqual([422, 'ACCOUNT_LIMIT_REACHED']);
      expect(await openCount(ada)).toBe(MAX_OPEN);

      expect((await b.close(ada, third.body.id)).status).toBe(200);
      expect((await open(ada, 'Fourth', newKey())).status).toBe(201);
      expect(await openCount(ada)).toBe(MAX_OPEN);
    });

    it('lets parallel openings pass the bound together never', async () => {
      const grace = await b.signUp();
      const replies = await Promise.all(Array.from({ length: 8 }, (_, i) => open(grace, `Parallel ${i}`, i % 2 === 0 ? newKey() : undefined)));
      const statuses = replies.map((r) => r.status).sort();
      expect(statuses).toEqual([...Array(MAX_OPEN - 1).fill(201), ...Array(8 - MAX_OPEN + 1).fill(422)]);
      expect(await openCount(grace)).toBe(MAX_OPEN);
    });
  });
});
