import { describe, expect, it } from 'vitest';
import { readinessGate } from './readinessGate.ts';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const withCode = (code: string, extra: object = {}) => Object.assign(new Error(code), { code, ...extra });

/** A gate whose probe fails until `up()` is called; counts its probes. */
function gateWithProbe(intervalMs = 20) {
  let databaseUp = false;
  const gate = readinessGate({
    name: 'test',
    intervalMs,
    probe: async () => {
      if (!databaseUp) throw withCode('ECONNREFUSED', { syscall: 'connect' });
    },
  });
  return { gate, up: () => void (databaseUp = true) };
}

describe('the readiness gate', () => {
  // prettier-ignore
  it.each([
    ['a refused login', withCode('ECONNREFUSED', { syscall: 'connect' }), true],
    ['a login that timed out (hung server)', new Error('Connection terminated due to connection timeout'), true],
    ['a login cut by the network', new Error('Connection terminated unexpectedly'), true],
    ['the server starting or stopping (57P03)', withCode('57P03', { severity: 'FATAL' }), true],
    ['too many connections (53300): the server is up, only full', withCode('53300', { severity: 'FATAL' }), false],
    ['a wrong password (28P01)', withCode('28P01', { severity: 'FATAL' }), false],
    ['a pool-wait timeout: the pool is busy, not the server down', new Error('timeout exceeded when trying to connect'), false],
  ])('closes on %s: %s', (_name, error, closes) => {
    const { gate } = gateWithProbe();
    expect(gate.noteLoginFailure(error)).toBe(closes);
    expect(gate.isOpen).toBe(!closes);
    gate.stop();
  });

  it('makes one probe per interval while closed, however many wait, and lets them all through once one succeeds', async () => {
    const { gate, up } = gateWithProbe(20);
    gate.noteLoginFailure(withCode('ECONNREFUSED', { syscall: 'connect' }));
    const signal = new AbortController().signal;
    const waiting = Array.from({ length: 100 }, () => gate.whenOpen(signal));
    await sleep(200);
    expect(gate.state()).toMatchObject({ open: false, waiters: 100 });
    expect(gate.state().probes).toBeGreaterThanOrEqual(3);
    expect(gate.state().probes).toBeLessThanOrEqual(11); // one per 20 ms at most, not one per waiter
    up();
    await Promise.all(waiting);
    expect(gate.state()).toMatchObject({ open: true, waiters: 0, closures: 1 });
  });

  it("ends a wait with the signal's reason when the deadline comes first", async () => {
    const { gate } = gateWithProbe(20);
    gate.noteLoginFailure(withCode('ECONNREFUSED', { syscall: 'connect' }));
    const reason = new Error('deadline');
    const wait = gate.whenOpen(AbortSignal.timeout(50));
    await expect(wait).rejects.toMatchObject({ name: 'TimeoutError' });
    const aborted = new AbortController();
    aborted.abort(reason);
    await expect(gate.whenOpen(aborted.signal)).rejects.toBe(reason);
    expect(gate.state().waiters).toBe(0);
    gate.stop();
  });

  it('stops probing once stopped', async () => {
    const { gate } = gateWithProbe(10);
    gate.noteLoginFailure(withCode('ECONNREFUSED', { syscall: 'connect' }));
    gate.stop();
    await sleep(60);
    expect(gate.state().probes).toBeLessThanOrEqual(1);
  });
});
