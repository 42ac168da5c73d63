/**
 * Pages of movements (newest first) and of accounts (oldest first), on the embedded PGlite:
 * each ordered by (time, id), so rows that share a time (a transfer's movements, a quick
 * succession of openings) come in id order, and a page that ends among them is followed by
 * the rest, none lost and none repeated. A look-up by key pages the same way.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../config.ts';
import { inRequest, memoryLogger } from '../../../test/support/inRequest.ts';
import type { AccessClaims, OperationInput } from '../../contract/operations.ts';
import { createDataLayer } from '../../data/createDataLayer.ts';
import { openDatabase, type Database } from '../../data/connections/index.ts';
import { statementsOf } from '../../data/statements.ts';
import type { DomainDeps } from '../deps.ts';
import { accountHandlers } from './accountHandlers.ts';
import { transactionCursors } from './transactionCursor.ts';
import { transactionHandlers } from './transactionHandlers.ts';

const sameTime = '2026-12-05T10:00:00.000Z';
const times = ['2026-12-05T09:00:00.000Z', sameTime, sameTime, sameTime, sameTime, sameTime, '2026-12-05T11:00:00.000Z'];

describe('pages ordered by (time, id) on the embedded PGlite', () => {
  let database: Database;
  let deps: DomainDeps;
  const sql = () => statementsOf(deps.data.db);
  /** A new customer with no account. */
  async function customer(): Promise<AccessClaims> {
    const caller = { userId: randomUUID(), familyId: randomUUID() };
    const name = `p${caller.userId.slice(0, 8)}`;
    await sql().execute`INSERT INTO users (id, email, display_name, handle, password_hash, pin_hash)
      VALUES (${caller.userId}::uuid, ${`${name}@example.com`}, ${name}, ${name}, 'x', 'x')`;
    return caller;
  }
  /** Each row's id and time, in the order a page walk must give them. */
  const expected = (rows: { id: string; at: string }[], newestFirst: boolean) =>
    rows
      .toSorted((a, b) => (a.at === b.at ? (a.id < b.id ? -1 : 1) : a.at < b.at ? -1 : 1) * (newestFirst ? -1 : 1))
      .map((row) => row.id);

  beforeAll(async () => {
    const config = loadConfig({ DATA_DIR: 'memory://' });
    database = await openDatabase(config);
    await database.migrate();
    const data = createDataLayer({ database, config, logger: memoryLogger().logger });
    deps = { data, config, cursors: transactionCursors('a signing secret of at least 32 characters') } as DomainDeps;
  }, 60_000);
  afterAll(() => database?.close());

  it('walks an account\'s movements newest first, across a page boundary among equal times, by key too', async () => {
    const caller = await customer();
    const accountId = randomUUID();
    await sql().execute`INSERT INTO accounts (id, user_id, name) VALUES (${accountId}::uuid, ${caller.userId}::uuid, 'Main')`;
    const rows = times.map((at, index) => ({ id: randomUUID(), at, key: index % 2 === 0 ? 'even' : 'odd' }));
    for (const row of rows) {
      await sql().execute`INSERT INTO ledger_entries (id, account_id, kind, amount_minor, balance_after_minor, idempotency_key, created_at)
        VALUES (${row.id}::uuid, ${accountId}::uuid, 'deposit', 1, 1, ${row.key}, ${row.at}::timestamptz)`;
    }
    const walk = async (idempotencyKey?: string) => {
      const seen: { id: string; createdAt: string }[] = [];
      let cursor: string | undefined;
      do {
        const query = { accountId, limit: 2, ...(cursor ? { cursor } : {}), ...(idempotencyKey ? { idempotencyKey } : {}) };
        const { body } = await inRequest(() => transactionHandlers(deps).listTransactions({ caller, query } as OperationInput<'listTransactions'>));
        seen.push(...body.items);
        cursor = body.nextCursor ?? undefined;
      } while (cursor);
      return seen;
    };
    const all = await walk();
    expect(all.map((item) => item.id)).toEqual(expected(rows, true));
    expect(all.map((item) => item.createdAt)).toEqual(times.toReversed());
    expect((await walk('even')).map((item) => item.id)).toEqual(expected(rows.filter((row) => row.key === 'even'), true));
  });

  it('walks the customer\'s accounts oldest first, across a page boundary among equal times', async () => {
    const caller = await customer();
    const rows = times.map((at) => ({ id: randomUUID(), at }));
    for (const row of rows) {
      await sql().execute`INSERT INTO accounts (id, user_id, name, opened_at) VALUES (${row.id}::uuid, ${caller.userId}::uuid, 'Spare', ${row.at}::timestamptz)`;
    }
    const seen: string[] = [];
    let cursor: string | undefined;
    do {
      const query = { limit: 3, ...(cursor ? { cursor } : {}) };
      const { body } = await inRequest(() => accountHandlers(deps).listAccounts({ caller, query } as OperationInput<'listAccounts'>));
      seen.push(...body.items.map((item) => item.id));
      cursor = body.nextCursor ?? undefined;
    } while (cursor);
    expect(seen).toEqual(expected(rows, false));
  });
});
