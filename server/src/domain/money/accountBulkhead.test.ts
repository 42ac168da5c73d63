import { describe, expect, it } from 'vitest';
import { NoTurnInTime } from '../bulkhead.ts';
import { accountBulkhead } from './accountBulkhead.ts';

/** Settles the microtasks of granted turns. */
const settle = () => new Promise((resolve) => setImmediate(resolve));

describe('account turns', () => {
  it('lets `concurrency` sends at one account run and lines the rest up in the order they came', async () => {
    const turns = accountBulkhead(2);
    const order: string[] = [];
    const first = await turns.take(['a']);
    const second = await turns.take(['a']);
    const third = turns.take(['a']).then((release) => (order.push('third'), release));
    const fourth = turns.take(['a']).then((release) => (order.push('fourth'), release));
    // Another account has a line of its own.
    const elsewhere = await turns.take(['b']);
    await settle();
    expect(order).toEqual([]);
    first();
    first(); // twice is once
    await settle();
    expect(order).toEqual(['third']);
    second();
    await settle();
    expect(order).toEqual(['third', 'fourth']);
    (await third)();
    (await fourth)();
    elsewhere();
    expect(turns.lines()).toBe(0);
  });

  it('lines a send up at the smallest id of its accounts, so A→B and B→A share one line', async () => {
    const turns = accountBulkhead(1);
    const aToB = await turns.take(['b', 'a']);
    let bToA = false;
    const pending = turns.take(['a', 'b']).then((release) => ((bToA = true), release));
    await settle();
    expect(bToA).toBe(false);
    expect(turns.lines()).toBe(1);
    aToB();
    (await pending)();
    expect(bToA).toBe(true);
    expect(turns.lines()).toBe(0);
  });

  it("leaves the line when the request's signal fires, and forgets an account nobody waits for", async () => {
    const turns = accountBulkhead(1);
    const held = await turns.take(['a']);
    const controller = new AbortController();
    const waiting = turns.take(['a'], controller.signal);
    controller.abort(new Error('deadline'));
    await expect(waiting).rejects.toThrow('deadline');
    // A signal that fired already: refused before it lines up, and no line is left behind.
    await expect(turns.take(['c'], controller.signal)).rejects.toThrow('deadline');
    expect(turns.lines()).toBe(1);
    held();
    expect(turns.lines()).toBe(0);
    // The turn is free again.
    (await turns.take(['a']))();
  });

  it('gives up a wait longer than its `maxWaitMs` with NoTurnInTime, and leaves the line', async () => {
    const turns = accountBulkhead(1);
    const held = await turns.take(['a']);
    await expect(turns.take(['a'], undefined, 20)).rejects.toBeInstanceOf(NoTurnInTime);
    held();
    expect(turns.lines()).toBe(0);
    // A turn that comes in time is given as before.
    const next = await turns.take(['a']);
    const inTime = turns.take(['a'], undefined, 5_000);
    next();
    (await inTime)();
    expect(turns.lines()).toBe(0);
  });
});
