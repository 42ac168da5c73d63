/**
 * `GET /api/accounts` a page at a time (adr/0043), on PostgreSQL over HTTP, with responses
 * validated against the spec: oldest first, `limit` per page (50 by default), a signed
 * `nextCursor` until the last page; every account once, in order; a cursor edited or made for
 * another customer is 400; a limit past 100 is 400.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Customer } from '@tidewater/test-support/bank';
import { bankOnPostgres, type BankOnPostgres } from '@tidewater/test-support/bankOnPostgres';
import { call } from '@tidewater/test-support/httpClient';

interface AccountPage {
  items: Array<{ id: string; name: string }>;
  nextCursor: string | null;
  /** On a refusal. */
  errorCode?: string;
}

describe('listing accounts a page at a time', () => {
  let setup: BankOnPostgres;
  let ada: Customer;
  let grace: Customer;
  const opened: string[] = [];

  beforeAll(async () => {
    setup = await bankOnPostgres({ env: { VALIDATE_RESPONSES: '1' } });
    [ada, grace] = [await setup.bank.signUp(), await setup.bank.signUp()];
    opened.push(ada.accountId);
    for (let i = 1; i <= 6; i++) {
      const reply = await call(setup.api.url, 'POST', '/api/accounts', { token: ada.token, body: { name: `Pot ${i}` } });
      expect(reply.status).toBe(201);
      opened.push(reply.body.id as string);
    }
  }, 120_000);
  afterAll(() => setup?.stop());

  const list = (who: Customer, query = '') => call<AccountPage>(setup.api.url, 'GET', `/api/accounts${query}`, { token: who.token });

  it('answers every account on one page by default, oldest first, with a null cursor', async () => {
    const reply = await list(ada);
    expect(reply.status).toBe(200);
    expect(reply.body.items.map((account) => account.id)).toEqual(opened);
    expect(reply.body.nextCursor).toBeNull();
  });

  it('follows nextCursor through pages of `limit`, each account once, in order', async () => {
    const seen: string[] = [];
    const sizes: number[] = [];
    let cursor: string | null = null;
    do {
      const query: string = `?limit=3${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`;
      const reply = await list(ada, query);
      expect(reply.status, JSON.stringify(reply.body)).toBe(200);
      sizes.push(reply.body.items.length);
      seen.push(...reply.body.items.map((account) => account.id));
      cursor = reply.body.nextCursor;
    } while (cursor !== null);
    expect(sizes).toEqual([3, 3, 1]);
    expect(seen).toEqual(opened);
  });

  it('refuses a cursor edited or made for another customer, and a limit outside 1 to 100', async () => {
    const cursor = (await list(ada, '?limit=2')).body.nextCursor!;
    const refused = [
      `${cursor.slice(0, -2)}AA`,
      'not-a-cursor',
    ];
    for (const bad of refused) expect((await list(ada, `?cursor=${encodeURIComponent(bad)}`)).body.errorCode, bad).toBe('VALIDATION_FAILED');
    const elsewhere = await list(grace, `?cursor=${encodeURIComponent(cursor)}`);
    expect([elsewhere.status, elsewhere.body.errorCode]).toEqual([400, 'VALIDATION_FAILED']);
    expect((await list(ada, '?limit=101')).status).toBe(400);
    expect((await list(ada, '?limit=0')).status).toBe(400);
  });
});
