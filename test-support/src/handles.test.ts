/**
 * The handles tests name, folded by the database's own skeleton: `handle_skeleton` (migration
 * 1764790000000_one_skeleton_per_handle.sql, applied by the real API at its start), the
 * function the UNIQUE index on `users` holds. No copy of it lives here, so this test and the
 * index cannot drift apart.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { query } from './bankDatabase.ts';
import { bankOnPostgres, type BankOnPostgres } from './bankOnPostgres.ts';
import { newVisitor } from './browser.ts';
import { uniqueHandle } from './handles.ts';
import { call } from './httpClient.ts';
import { loadOpenApiDocument } from './openApiDocument.ts';

let setup: BankOnPostgres;
beforeAll(async () => {
  setup = await bankOnPostgres();
});
afterAll(() => setup?.stop());

/** How many skeletons the database gives `handles`. */
async function skeletonsOf(handles: string[]): Promise<number> {
  const [row] = await query<{ skeletons: number }>(
    setup.url,
    'SELECT count(DISTINCT handle_skeleton(h))::int AS skeletons FROM unnest($1::text[]) AS h',
    [handles],
  );
  return row!.skeletons;
}

const handleShape = new RegExp(
  (loadOpenApiDocument().components as { schemas: { Handle: { pattern: string } } }).schemas.Handle.pattern,
);
/** Labels as the suites give them: none, short, cut to fit, ending in `u` or in a suffix letter, with digits and capitals. */
const labels = ['', 'c', 'm', 'renew', 'hostcookie', 'elsewhere', 'lu', 'zz', 'b', 'load7', 'Drill_BFF'];

describe('handles for tests, under the database skeleton', () => {
  it('folds a counter written in decimal or base 36: the reason a helper is needed', async () => {
    expect(await skeletonsOf(['soak1', 'soak11', 'soaki', 'soakl'])).toBe(1);
    expect(await skeletonsOf(['m8x', 'mbx', 'mbbx'])).toBe(1);
  });

  it('gives 5,000 handles of uniqueHandle 5,000 skeletons, whatever their labels, in the spec\'s shape', async () => {
    const handles = Array.from({ length: 5_000 }, (_, n) => uniqueHandle(labels[n % labels.length]));
    expect(handles.filter((handle) => !handleShape.test(handle))).toEqual([]);
    expect(await skeletonsOf(handles)).toBe(5_000);
  });

  it("gives 5,000 of the BFF tests' visitors (newVisitor) 5,000 skeletons", async () => {
    const handles = Array.from({ length: 5_000 }, () => newVisitor('renew').handle);
    expect(await skeletonsOf(handles)).toBe(5_000);
  });

  it('names handles the API signs up: none reserved, none refused', async () => {
    const visitors = [
      ...labels.slice(0, 6).map((label) => ({ ...newVisitor(), handle: uniqueHandle(label) })),
      newVisitor('journey'),
    ];
    const statuses = [];
    for (const visitor of visitors) {
      statuses.push((await call(setup.api.url, 'POST', '/api/auth/register', { body: visitor })).status);
    }
    expect(statuses).toEqual(visitors.map(() => 201));
    const customers = [await setup.bank.signUp(), await setup.bank.signUp()];
    expect(await skeletonsOf([...visitors.map((v) => v.handle), ...customers.map((c) => c.handle)])).toBe(9);
  });
});
