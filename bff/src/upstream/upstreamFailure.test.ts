/**
 * A call's abort signal fires at its budget even when the garbage collector runs while the
 * API hangs (on Node 20 an `AbortSignal.timeout` that only `AbortSignal.any` refers to is
 * collected and never fires: nodejs/node#57736), and says which of budget and hang-up ended it.
 */
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { describe, expect, it } from 'vitest';
import { UpstreamTimeout, VisitorHungUp, upstreamAbort, upstreamFailureOf } from './upstreamFailure.ts';

setFlagsFromString('--expose-gc');
const collectGarbage = runInNewContext('gc') as () => void;

/** Resolves with the signal's reason when it aborts, or 'never' after `withinMs`, collecting garbage all along. */
function abortedWithin(signal: AbortSignal, withinMs: number): Promise<unknown> {
  return new Promise((resolve) => {
    const collector = setInterval(collectGarbage, 10);
    const giveUp = setTimeout(() => finish('never'), withinMs);
    function finish(outcome: unknown) {
      clearInterval(collector);
      clearTimeout(giveUp);
      resolve(outcome);
    }
    // Like undici: a listener on the combined signal only.
    signal.addEventListener('abort', () => finish(signal.reason), { once: true });
  });
}

describe('upstreamAbort', () => {
  it('aborts at its budget with a visitor signal, garbage collected or not', async () => {
    const visitor = new AbortController();
    const call = upstreamAbort(100, visitor.signal);
    const reason = await abortedWithin(call.signal, 2_000);
    call.end();
    expect(reason).toBeInstanceOf(UpstreamTimeout);
    expect(upstreamFailureOf(call.signal)).toBe('timeout');
  });

  it('aborts at its budget without one', async () => {
    const call = upstreamAbort(100);
    expect(await abortedWithin(call.signal, 2_000)).toBeInstanceOf(UpstreamTimeout);
    call.end();
  });

  it('aborts when the visitor hangs up, and names it', async () => {
    const visitor = new AbortController();
    const call = upstreamAbort(10_000, visitor.signal);
    setTimeout(() => visitor.abort(new VisitorHungUp()), 20);
    expect(await abortedWithin(call.signal, 2_000)).toBeInstanceOf(VisitorHungUp);
    call.end();
    expect(upstreamFailureOf(call.signal)).toBe('hungUp');
  });

  it('does not abort once the call has ended', async () => {
    const call = upstreamAbort(50);
    call.end();
    expect(await abortedWithin(call.signal, 300)).toBe('never');
    expect(upstreamFailureOf(call.signal)).toBe('unreachable');
  });
});
