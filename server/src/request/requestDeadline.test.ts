/**
 * The deadline's own rules, without a database: what it tells the connections it cancels
 * (adr/0030) when its signal fires, and when it does not.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import { RequestDeadline, type Cancellable } from './requestDeadline.ts';

/** A Cancellable that records the signals it was told of. */
function recorder(): Cancellable & { told: AbortSignal[] } {
  const told: AbortSignal[] = [];
  return { told, cancelOnFire: (signal) => void told.push(signal) };
}

describe('the request deadline', () => {
  it('tells each registered item once, with its signal, right after the deadline fires', async () => {
    const deadline = new RequestDeadline();
    const first = recorder();
    const second = recorder();
    deadline.cancelOnFire(first);
    deadline.cancelOnFire(first); // a connection that ran two statements: told once
    deadline.cancelOnFire(second);
    let abortedWhenTold: boolean | undefined;
    deadline.cancelOnFire({ cancelOnFire: (signal) => void (abortedWhenTold = signal.aborted) });
    deadline.arm(20);
    await sleep(120);
    expect(deadline.signal.aborted).toBe(true);
    expect(first.told).toEqual([deadline.signal]);
    expect(second.told).toEqual([deadline.signal]);
    expect(abortedWhenTold).toBe(true);
  });

  it('tells them when the client hangs up', () => {
    const deadline = new RequestDeadline();
    const item = recorder();
    deadline.cancelOnFire(item);
    deadline.onClientGone();
    expect(item.told).toEqual([deadline.signal]);
  });

  it('tells nothing while a commit holds the deadline off, nor on a hang-up the operation ignores', async () => {
    const held = new RequestDeadline();
    const item = recorder();
    held.cancelOnFire(item);
    held.arm(20);
    expect(held.disarmForCommit()).toBe(true);
    await sleep(120);
    held.onClientGone();
    expect(held.signal.aborted).toBe(false);
    expect(item.told).toEqual([]);

    const exempt = new RequestDeadline();
    const other = recorder();
    exempt.ignoreClientHangUp();
    exempt.cancelOnFire(other);
    exempt.onClientGone();
    expect(other.told).toEqual([]);
  });

  it('tells a commit that failed after the deadline passed at once, when it re-arms', async () => {
    const deadline = new RequestDeadline();
    const item = recorder();
    deadline.arm(20);
    deadline.cancelOnFire(item);
    expect(deadline.disarmForCommit()).toBe(true);
    await sleep(80);
    deadline.rearmAfterFailedCommit();
    expect(deadline.signal.aborted).toBe(true);
    expect(item.told).toEqual([deadline.signal]);
  });

  it('keeps nothing registered after it fired: a late registration is never told', () => {
    const deadline = new RequestDeadline();
    deadline.onClientGone();
    const late = recorder();
    deadline.cancelOnFire(late);
    deadline.onClientGone();
    expect(late.told).toEqual([]);
  });

  it('held for a statement that is its own commit: calls it, not the signal, at the deadline, even once the response is disposed', async () => {
    const deadline = new RequestDeadline();
    const item = recorder();
    deadline.cancelOnFire(item);
    deadline.arm(30);
    let calls = 0;
    expect(deadline.holdForOwnCommit({ atDeadline: () => void calls++ })).toBe('held');
    deadline.dispose(); // the client hung up and the response closed: the statement still has its bound
    deadline.onClientGone();
    await sleep(150);
    expect(calls).toBe(1);
    expect(deadline.signal.aborted).toBe(false);
    expect(item.told).toEqual([]);
    // The statement failed after its cancel: the deadline, re-armed, fires at once.
    deadline.endOwnCommit();
    deadline.rearmAfterFailedCommit();
    expect(deadline.signal.aborted).toBe(true);
  });

  it('held, then answered: its instant calls nothing; unarmed or fired, nothing is held', async () => {
    const answered = new RequestDeadline();
    answered.arm(30);
    let calls = 0;
    expect(answered.holdForOwnCommit({ atDeadline: () => void calls++ })).toBe('held');
    answered.endOwnCommit();
    await sleep(150);
    expect(calls).toBe(0);
    expect(answered.signal.aborted).toBe(false);

    expect(new RequestDeadline().holdForOwnCommit({ atDeadline: () => void calls++ })).toBe('disarmed');
    const committedBefore = new RequestDeadline();
    committedBefore.arm(10_000);
    committedBefore.disarmForCommit();
    expect(committedBefore.holdForOwnCommit({ atDeadline: () => void calls++ })).toBe('disarmed');
    const fired = new RequestDeadline();
    fired.onClientGone();
    expect(fired.holdForOwnCommit({ atDeadline: () => void calls++ })).toBe('refused');
    expect(calls).toBe(0);
  });
});
