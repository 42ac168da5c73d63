import { describe, expect, it } from 'vitest';
import { hashingBulkhead } from './hashingBulkhead.ts';

describe('hashing turns', () => {
  it('lets `concurrency` run, lines up `queue` more, and refuses the next at once with a 503', async () => {
    const turns = hashingBulkhead(2, 1);
    const first = await turns.take();
    const second = await turns.take();
    const third = turns.take();
    await expect(turns.take()).rejects.toMatchObject({ code: 'SERVICE_UNAVAILABLE', status: 503, extras: { retryAfterSeconds: 1 } });
    expect(turns.state()).toEqual({ running: 2, waiting: 1 });
    first();
    const thirdRelease = await third;
    expect(turns.state()).toEqual({ running: 2, waiting: 0 });
    second();
    thirdRelease();
    thirdRelease(); // twice is once
    expect(turns.state()).toEqual({ running: 0, waiting: 0 });
  });

  it("leaves the line when the request's signal fires", async () => {
    const turns = hashingBulkhead(1, 5);
    const held = await turns.take();
    const controller = new AbortController();
    const waiting = turns.take(controller.signal);
    controller.abort(new Error('deadline'));
    await expect(waiting).rejects.toThrow('deadline');
    expect(turns.state()).toEqual({ running: 1, waiting: 0 });
    held();
    expect(turns.state()).toEqual({ running: 0, waiting: 0 });
  });
});
