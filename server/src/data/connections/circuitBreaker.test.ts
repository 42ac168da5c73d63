import { describe, expect, it } from 'vitest';
import { circuitBreaker } from './circuitBreaker.ts';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const withCode = (code: string, extra: object = {}) => Object.assign(new Error(code), { code, ...extra });

/** A breaker whose probe fails until `up()` is called; counts its probes. */
function breakerWithProbe(intervalMs = 20) {
  let databaseUp = false;
  const breaker = circuitBreaker({
    name: 'test',
    intervalMs,
    probe: async () => {
      if (!databaseUp) throw withCode('ECONNREFUSED', { syscall: 'connect' });
    },
  });
  return { breaker, up: () => void (databaseUp = true) };
}

describe("the database's circuit breaker", () => {
  // prettier-ignore
  it.each([
    ['a refused login', withCode('ECONNREFUSED', { syscall: 'connect' }), true],
    ['a login that timed out (hung server)', new Error('Connection terminated due to connection timeout'), true],
    ['a login cut by the network', new Error('Connection terminated unexpectedly'), true],
    ['the server starting or stopping (57P03)', withCode('57P03', { severity: 'FATAL' }), true],
    ['too many connections (53300): the server is up, only full', withCode('53300', { severity: 'FATAL' }), false],
    ['a wrong password (28P01)', withCode('28P01', { severity: 'FATAL' }), false],
    ['a pool-wait timeout: the pool is busy, not the server down', new Error('timeout exceeded when trying to connect'), false],
  ])('opens on %s: %s', (_name, error, opens) => {
    const { breaker } = breakerWithProbe();
    expect(breaker.state).toBe('closed');
    expect(breaker.noteLoginFailure(error)).toBe(opens);
    expect(breaker.state).toBe(opens ? 'open' : 'closed');
    breaker.stop();
  });

  it('makes one probe per interval while open, however many wait, and lets them all through once one succeeds', async () => {
    const { breaker, up } = breakerWithProbe(20);
    breaker.noteLoginFailure(withCode('ECONNREFUSED', { syscall: 'connect' }));
    const signal = new AbortController().signal;
    const waiting = Array.from({ length: 100 }, () => breaker.whenClosed(signal));
    await sleep(200);
    expect(breaker.snapshot()).toMatchObject({ waiters: 100 });
    expect(breaker.snapshot().state).not.toBe('closed');
    expect(breaker.snapshot().probes).toBeGreaterThanOrEqual(3);
    expect(breaker.snapshot().probes).toBeLessThanOrEqual(11); // one per 20 ms at most, not one per waiter
    up();
    await Promise.all(waiting);
    expect(breaker.snapshot()).toMatchObject({ state: 'closed', waiters: 0, openings: 1 });
  });

  it('is half-open while its probe login is under way, and still refuses then', async () => {
    let finishProbe: (() => void) | undefined;
    let probes = 0;
    const breaker = circuitBreaker({
      name: 'test',
      intervalMs: 1,
      probe: () => {
        probes += 1;
        return new Promise<void>((resolve) => (finishProbe = resolve));
      },
    });
    breaker.noteLoginFailure(withCode('ECONNREFUSED', { syscall: 'connect' }));
    expect(breaker.state).toBe('open');
    while (probes === 0) await sleep(5);
    expect(breaker.state).toBe('half-open');
    expect(breaker.openedBy).toMatchObject({ code: 'ECONNREFUSED' });
    finishProbe!();
    await breaker.whenClosed(new AbortController().signal);
    expect(breaker.state).toBe('closed');
    expect(breaker.openedBy).toBeUndefined();
    breaker.stop();
  });

  it("ends a wait with the signal's reason when the deadline comes first", async () => {
    const { breaker } = breakerWithProbe(20);
    breaker.noteLoginFailure(withCode('ECONNREFUSED', { syscall: 'connect' }));
    const reason = new Error('deadline');
    const wait = breaker.whenClosed(AbortSignal.timeout(50));
    await expect(wait).rejects.toMatchObject({ name: 'TimeoutError' });
    const aborted = new AbortController();
    aborted.abort(reason);
    await expect(breaker.whenClosed(aborted.signal)).rejects.toBe(reason);
    expect(breaker.snapshot().waiters).toBe(0);
    breaker.stop();
  });

  it('stops probing once stopped', async () => {
    const { breaker } = breakerWithProbe(10);
    breaker.noteLoginFailure(withCode('ECONNREFUSED', { syscall: 'connect' }));
    breaker.stop();
    await sleep(60);
    expect(breaker.snapshot().probes).toBeLessThanOrEqual(1);
  });
});
