import { describe, expect, it } from 'vitest';
import { PermitWaitTimeout } from '../bulkhead.ts';
import { accountBulkhead } from './accountBulkhead.ts';

/** Settles the microtasks of granted permits. */
const settle = () => new Promise((resolve) => setImmediate(resolve));

describe('the account bulkhead', () => {
  it('lets `concurrency` sends at one account run and queues the rest in the order they came', async () => {
    const permits = accountBulkhead(2);
    const order: string[] = [];
    const first = await permits.acquire(['a']);
    const second = await permits.acquire(['a']);
    const third = permits.acquire(['a']).then((release) => (order.push('third'), release));
    const fourth = permits.acquire(['a']).then((release) => (order.push('fourth'), release));
    // Another account has a bulkhead of its own.
    const elsewhere = await permits.acquire(['b']);
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
    expect(permits.accountsInUse()).toBe(0);
  });

  it('queues a send at the smallest id of its accounts, so A→B and B→A share one queue', async () => {
    const permits = accountBulkhead(1);
    const aToB = await permits.acquire(['b', 'a']);
    let bToA = false;
    const pending = permits.acquire(['a', 'b']).then((release) => ((bToA = true), release));
    await settle();
    expect(bToA).toBe(false);
    expect(permits.accountsInUse()).toBe(1);
    aToB();
    (await pending)();
    expect(bToA).toBe(true);
    expect(permits.accountsInUse()).toBe(0);
  });

  it("leaves the queue when the request's signal fires, and forgets an account nobody waits for", async () => {
    const permits = accountBulkhead(1);
    const held = await permits.acquire(['a']);
    const controller = new AbortController();
    const waiting = permits.acquire(['a'], controller.signal);
    controller.abort(new Error('deadline'));
    await expect(waiting).rejects.toThrow('deadline');
    // A signal that fired already: refused before it queues, and no bulkhead is left behind.
    await expect(permits.acquire(['c'], controller.signal)).rejects.toThrow('deadline');
    expect(permits.accountsInUse()).toBe(1);
    held();
    expect(permits.accountsInUse()).toBe(0);
    // The permit is free again.
    (await permits.acquire(['a']))();
  });

  it('gives up a wait longer than its `maxWaitMs` with PermitWaitTimeout, and leaves the queue', async () => {
    const permits = accountBulkhead(1);
    const held = await permits.acquire(['a']);
    await expect(permits.acquire(['a'], undefined, 20)).rejects.toBeInstanceOf(PermitWaitTimeout);
    held();
    expect(permits.accountsInUse()).toBe(0);
    // A permit that comes in time is given as before.
    const next = await permits.acquire(['a']);
    const inTime = permits.acquire(['a'], undefined, 5_000);
    next();
    (await inTime)();
    expect(permits.accountsInUse()).toBe(0);
  });
});
