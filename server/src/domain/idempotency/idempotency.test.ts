/**
 * The parts of the idempotency protocol that need no database: the request hash, and
 * what land and release do with their one row (against a stand-in data layer). The
 * protocol end to end is test/money/idempotency.test.ts.
 */
import { describe, expect, it } from 'vitest';
import type { DataLayer, Tx } from '../../data/dataLayer.ts';
import { hashRequest, idempotencyRecords, isClaimTakenOver, type Claim } from './idempotency.ts';

const config = { idempotencyReleaseBudgetMs: 3_000, idempotencyStaleAfterMs: 120_000, busyRetryAfterSeconds: 1 };
const claim: Claim = { id: 'c', userId: 'u', key: 'key-12345', ownerToken: 't', startedAt: 0 };

/** A data layer whose writes (Prisma Client's `$queryRaw` and `$executeRaw`) answer `answer` (or fail with it) and are counted. */
function standIn(answer: unknown) {
  const calls: string[] = [];
  const query = async (strings: TemplateStringsArray) => {
    calls.push(strings.join('?'));
    if (answer instanceof Error) throw answer;
    return answer as never;
  };
  const execute = async (strings: TemplateStringsArray) => {
    calls.push(strings.join('?'));
    if (answer instanceof Error) throw answer;
    return 1;
  };
  const db = { $queryRaw: query, $executeRaw: execute };
  const data = { write: (fn: (db: never) => unknown) => fn(db as never), db } as unknown as DataLayer;
  return { data, calls };
}

/** The stand-in's client as a transaction. */
const txOf = (data: DataLayer) => (data as unknown as { db: Tx }).db;

describe('hashRequest', () => {
  it.each<[string, Parameters<typeof hashRequest>, boolean]>([
    ['the same body in another key order', ['deposit', { accountId: 'a' }, { description: 'x', amountMinor: 1 }], true],
    ['another amount', ['deposit', { accountId: 'a' }, { amountMinor: 2, description: 'x' }], false],
    ['another account', ['deposit', { accountId: 'b' }, { amountMinor: 1, description: 'x' }], false],
    ['another operation', ['withdraw', { accountId: 'a' }, { amountMinor: 1, description: 'x' }], false],
  ])('%s → same hash: %s', (_name, args, same) => {
    const base = hashRequest('deposit', { accountId: 'a' }, { amountMinor: 1, description: 'x' });
    expect(hashRequest(...args) === base).toBe(same);
  });
});

describe('landing and releasing a claim', () => {
  it('never stores an empty answer: the claim is only fenced', async () => {
    const { data, calls } = standIn([]);
    expect(await idempotencyRecords(data, config).land(txOf(data), claim, 201, undefined)).toBeUndefined();
    expect(calls).toHaveLength(1);
    expect(calls[0]).toMatch(/SET landed_at = now\(\)\s+WHERE/);
  });

  it('lands the claim and its answer in one statement, and answers the body as the database kept it', async () => {
    // jsonb comes back as text from a direct statement, in the database's key order.
    const { data, calls } = standIn([{ responseBody: '{"b": 2, "a": 1}' }]);
    const landed = await idempotencyRecords(data, config).land(txOf(data), claim, 201, { a: 1, b: 2 });
    expect(Object.keys(landed)).toEqual(['b', 'a']);
    expect(landed).toEqual({ a: 1, b: 2 });
    expect(calls).toHaveLength(1);
    expect(calls[0]).toMatch(/SET landed_at = now\(\), status = 'Executed'/);
  });

  it('throws ClaimTakenOver when the claim is no longer this request\'s (the transaction then rolls back)', async () => {
    const { data } = standIn([]);
    const landing = idempotencyRecords(data, config).land(txOf(data), claim, 201, { a: 1 });
    await expect(landing).rejects.toSatisfy(isClaimTakenOver);
  });

  it('swallows a failed release: the key is then held until the claim is stale', async () => {
    const { data, calls } = standIn(new Error('connection terminated'));
    await expect(idempotencyRecords(data, config).release(claim)).resolves.toBeUndefined();
    expect(calls[0]).toMatch(/DELETE FROM idempotency_records/);
  });
});
