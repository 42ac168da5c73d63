/**
 * Movements a customer can find and keep, on PostgreSQL through the real API (adr/0071):
 * listTransactions' search and filters (a filtered list pages with its cursor), and
 * getStatement's CSV and PDF of a month, whose balances are checked against the ledger
 * in the database and whose months end at midnight in Europe/Amsterdam, not UTC.
 *
 * The movements are made through the API, then moved back in time in the database (the
 * test's own SQL), so a month in the past holds them: two months ago, and last month with
 * one movement at 00:30 on its first day in Amsterdam, which is still the month before in UTC.
 */
import { inflateSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bankOnPostgres, type BankOnPostgres } from '@tidewater/test-support/bankOnPostgres';
import type { Customer } from '@tidewater/test-support/bank';
import { query } from '@tidewater/test-support/bankDatabase';
import { call } from '@tidewater/test-support/httpClient';

/** `YYYY-MM` of the month `back` months before this one in Amsterdam. */
function monthsAgo(back: number): string {
  const [year, month] = new Intl.DateTimeFormat('en-CA', { timeZone: 'Europe/Amsterdam', year: 'numeric', month: '2-digit' }).format(new Date()).split('-').map(Number) as [number, number];
  const index = year * 12 + (month - 1) - back;
  return `${Math.floor(index / 12)}-${String((index % 12) + 1).padStart(2, '0')}`;
}

const older = monthsAgo(2);
const last = monthsAgo(1);
const hostile = '=HYPERLINK("http://evil.example","Click")';

describe('search, filters and monthly statements', () => {
  let setup: BankOnPostgres;
  let ada: Customer;
  let grace: Customer;

  const statement = (customer: Customer, month: string, format: string, accountId = customer.accountId) =>
    call(setup.bank.url, 'GET', `/api/accounts/${accountId}/statements/${month}?format=${format}`, { token: customer.token });
  const list = (customer: Customer, filters: Record<string, string | number>) => setup.bank.transactions(customer, { accountId: customer.accountId, ...filters });
  /** The ledger's sum of ada's movements before an Amsterdam wall-clock time. */
  const sumBefore = async (localTime: string) =>
    BigInt((await query<{ sum: string }>(setup.url, `SELECT COALESCE(SUM(amount_minor), 0)::text AS sum FROM ledger_entries WHERE account_id = $1 AND created_at < ($2::timestamp AT TIME ZONE 'Europe/Amsterdam')`, [ada.accountId, localTime]))[0]!.sum);

  beforeAll(async () => {
    setup = await bankOnPostgres();
    ada = await setup.bank.signUp();
    grace = await setup.bank.signUp();
    // Oldest first; each moved to its time below.
    const sends = [
      () => setup.bank.deposit(ada, ada.accountId, 250_000, undefined, 'Salary October'),
      () => setup.bank.deposit(ada, ada.accountId, 5_000, undefined, hostile),
      () => setup.bank.deposit(ada, ada.accountId, 1_250, undefined, 'Refund, shop "A" 100%'),
      () => setup.bank.withdraw(ada, ada.accountId, 1_250),
      () => setup.bank.transfer(ada, { fromAccountId: ada.accountId, toHandle: grace.handle, amountMinor: 9_000, description: '+rent split' }),
    ];
    for (const send of sends) expect((await send()).status).toBe(201);
    const times = [`${older}-10 12:00`, `${older}-20 08:00`, `${last}-01 00:30`, `${last}-15 09:00`];
    const ids = await query<{ id: string }>(setup.url, 'SELECT id::text FROM ledger_entries WHERE account_id = $1 ORDER BY created_at, id', [ada.accountId]);
    for (const [index, at] of times.entries()) {
      await query(setup.url, `UPDATE ledger_entries SET created_at = ($1::timestamp AT TIME ZONE 'Europe/Amsterdam') WHERE id = $2`, [at, ids[index]!.id]);
    }
  });
  afterAll(() => setup?.stop());

  describe('the movements list', () => {
    it('finds by text in the description or the counterparty, ignoring case, % and _ taken literally', async () => {
      const found = await list(ada, { q: 'REFUND' });
      expect(found.status).toBe(200);
      expect(found.body.items.map((item: { amountMinor: number }) => item.amountMinor)).toEqual([1_250]);
      expect((await list(ada, { q: grace.handle })).body.items.map((item: { kind: string }) => item.kind)).toEqual(['transfer_out']);
      expect((await list(ada, { q: '100%' })).body.items).toHaveLength(1);
      expect((await list(ada, { q: '%' })).body.items).toHaveLength(1);
      expect((await list(ada, { q: '_' })).body.items).toHaveLength(0);
    });

    it('filters by amount either way, by direction and by Amsterdam days', async () => {
      const amounts = async (filters: Record<string, string | number>) => (await list(ada, filters)).body.items.map((item: { amountMinor: number }) => item.amountMinor);
      expect(await amounts({ amountMinor: 1_250 })).toEqual([-1_250, 1_250]);
      expect(await amounts({ direction: 'out' })).toEqual([-9_000, -1_250]);
      expect(await amounts({ direction: 'in' })).toEqual([1_250, 5_000, 250_000]);
      // 00:30 on the 1st in Amsterdam is the day before in UTC: the day is Amsterdam's.
      expect(await amounts({ from: `${last}-01`, to: `${last}-01` })).toEqual([1_250]);
      expect(await amounts({ to: `${older}-28` })).toEqual([5_000, 250_000]);
      expect(await amounts({ direction: 'in', from: `${older}-15`, q: 'click' })).toEqual([5_000]);
    });

    it('pages a filtered list with its cursor, none lost and none repeated', async () => {
      const seen: number[] = [];
      let cursor: string | undefined;
      do {
        const page = await list(ada, { direction: 'in', limit: 1, ...(cursor ? { cursor } : {}) });
        expect(page.status).toBe(200);
        seen.push(...page.body.items.map((item: { amountMinor: number }) => item.amountMinor));
        cursor = page.body.nextCursor ?? undefined;
      } while (cursor);
      expect(seen).toEqual([1_250, 5_000, 250_000]);
    });

    it.each([
      ['a range that ends before it begins', { from: '2026-11-02', to: '2026-11-01' }],
      ['a day that does not exist', { from: '2026-02-30' }],
      ['a year the calendar has not', { to: '0000-01-01' }],
      ['a blank search', { q: '   ' }],
      ['a NUL in the search', { q: 'a\u0000b' }],
      ['a search of 101 characters', { q: 'x'.repeat(101) }],
      ['an amount of 0', { amountMinor: 0 }],
      ['an amount that is no number', { amountMinor: '12.50' }],
      ['a direction that is neither', { direction: 'sideways' }],
    ])('answers %s with 400 VALIDATION_FAILED', async (_name, filters) => {
      const refused = await list(ada, filters);
      expect([refused.status, refused.contentType, refused.body.errorCode]).toEqual([400, 'application/problem+json; charset=utf-8', 'VALIDATION_FAILED']);
    });
  });

  describe('the statement', () => {
    it('gives a month as RFC 4180 CSV: both balances from the ledger, every movement, formulas defused', async () => {
      const csv = await statement(ada, last, 'csv');
      expect(csv.status).toBe(200);
      expect(csv.headers.get('content-type')).toMatch(/^text\/csv/);
      expect(csv.headers.get('content-disposition')).toBe(`attachment; filename="tidewater-everyday-${last}.csv"`);
      const opening = await sumBefore(`${last}-01 00:00`);
      const closing = await sumBefore(`${monthsAgo(0)}-01 00:00`);
      expect([opening, closing]).toEqual([255_000n, 255_000n]);
      const lines = (csv.body as string).split('\r\n');
      expect(lines.slice(0, 6)).toEqual([
        'Bank,Tidewater',
        `Account,Everyday,${ada.accountId}`,
        `Month,${last},Europe/Amsterdam`,
        `Opening balance,EUR,${opening}`,
        '',
        'Date,Kind,Description,Counterparty,Amount (minor),Balance after (minor)',
      ]);
      expect(lines[6]).toMatch(new RegExp(`^${last}-01T00:30:00\\.000\\+0[12]:00,deposit,"Refund, shop ""A"" 100%",,1250,256250$`));
      expect(lines[7]).toMatch(new RegExp(`^${last}-15T09:00:00\\.000\\+0[12]:00,withdrawal,,,-1250,255000$`));
      expect(lines.slice(8)).toEqual(['', `Closing balance,EUR,${closing}`, '']);
    });

    it('defuses a formula in a description, and a handle that starts with @', async () => {
      const csv = (await statement(ada, older, 'csv')).body as string;
      expect(csv).toContain(`,deposit,"'=HYPERLINK(""http://evil.example"",""Click"")",,5000,255000\r\n`);
      expect(csv).toContain('Opening balance,EUR,0\r\n');
      expect(csv).toContain(`Closing balance,EUR,${await sumBefore(`${last}-01 00:00`)}\r\n`);
      const now = (await statement(ada, monthsAgo(0), 'csv')).body as string;
      expect(now).toContain(`,transfer_out,'+rent split,'@${grace.handle},-9000,246000\r\n`);
      const [account] = await query<{ balance: string }>(setup.url, 'SELECT balance_minor::text AS balance FROM accounts WHERE id = $1', [ada.accountId]);
      expect(now).toContain(`Closing balance,EUR,${account!.balance}\r\n`);
    });

    it('gives the month as a PDF that names the bank and the account, with both balances', async () => {
      const response = await fetch(`${setup.bank.url}/api/accounts/${ada.accountId}/statements/${last}?format=pdf`, { headers: { authorization: `Bearer ${ada.token}` } });
      expect(response.status).toBe(200);
      expect(response.headers.get('content-type')).toBe('application/pdf');
      const pdf = Buffer.from(await response.arrayBuffer());
      expect(pdf.subarray(0, 5).toString('latin1')).toBe('%PDF-');
      expect(pdf.toString('latin1')).toContain(`(Tidewater statement: Everyday, ${last})`); // the document's Title
      const text = pageText(pdf);
      for (const words of ['Tidewater', 'Account: Everyday', 'Opening balance: EUR 2,550.00', 'Closing balance: EUR 2,550.00', 'Refund, shop "A" 100%']) {
        expect(text, words).toContain(words);
      }
    });

    it("answers another customer's account 404, like one that does not exist", async () => {
      for (const accountId of [ada.accountId, '00000000-0000-4000-8000-000000000000']) {
        const refused = await statement(grace, last, 'csv', accountId);
        expect([refused.status, refused.body.errorCode]).toEqual([404, 'ACCOUNT_NOT_FOUND']);
      }
    });

    it.each([
      ['a month that has not begun', '2999-12', 'csv'],
      ['month 13', '2026-13', 'csv'],
      ['a year before 1970', '1969-12', 'csv'],
      ['no month at all', 'latest', 'csv'],
      ['a format it does not make', '2026-11', 'xlsx'],
    ])('answers %s with 400 VALIDATION_FAILED', async (_name, month, format) => {
      const refused = await statement(ada, month, format);
      expect([refused.status, refused.contentType, refused.body.errorCode]).toEqual([400, 'application/problem+json; charset=utf-8', 'VALIDATION_FAILED']);
    });

    it('answers 401 without a token', async () => {
      const refused = await call(setup.bank.url, 'GET', `/api/accounts/${ada.accountId}/statements/${last}?format=csv`);
      expect([refused.status, refused.body.errorCode]).toEqual([401, 'UNAUTHENTICATED']);
    });
  });
});

/** The text of a PDF's content streams (pdfkit's: deflated, text as hex strings in TJ arrays). */
function pageText(pdf: Buffer): string {
  const text: string[] = [];
  const source = pdf.toString('latin1');
  for (const match of source.matchAll(/stream\r?\n/g)) {
    const start = match.index + match[0].length;
    const end = source.indexOf('endstream', start);
    let content: string;
    try {
      content = inflateSync(pdf.subarray(start, end)).toString('latin1');
    } catch {
      continue;
    }
    for (const line of content.matchAll(/\[(.*?)\] TJ/g)) {
      text.push([...line[1]!.matchAll(/<([0-9a-f]+)>/g)].map((hex) => Buffer.from(hex[1]!, 'hex').toString('latin1')).join(''));
    }
    text.push('\n');
  }
  return text.join('');
}
