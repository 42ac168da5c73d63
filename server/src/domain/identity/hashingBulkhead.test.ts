import { describe, expect, it } from 'vitest';
import { hashingBulkhead } from './hashingBulkhead.ts';

describe('the hashing bulkhead', () => {
  it('lets `concurrency` run, queues `queue` more, and refuses the next at once with a 503', async () => {
    const hashing = hashingBulkhead(2, 1);
    const first = await hashing.acquire();
    const second = await hashing.acquire();
    const third = hashing.acquire();
    await expect(hashing.acquire()).rejects.toMatchObject({ code: 'SERVICE_UNAVAILABLE', status: 503, extras: { retryAfterSeconds: 1 } });
    expect(hashing.state()).toEqual({ running: 2, waiting: 1 });
    first();
    const thirdRelease = await third;
    expect(hashing.state()).toEqual({ running: 2, waiting: 0 });
    second();
    thirdRelease();
    thirdRelease(); // twice is once
    expect(hashing.state()).toEqual({ running: 0, waiting: 0 });
  });

  it("leaves the queue when the request's signal fires", async () => {
    const hashing = hashingBulkhead(1, 5);
    const held = await hashing.acquire();
    const controller = new AbortController();
    const waiting = hashing.acquire(controller.signal);
    controller.abort(new Error('deadline'));
    await expect(waiting).rejects.toThrow('deadline');
    expect(hashing.state()).toEqual({ running: 1, waiting: 0 });
    held();
    expect(hashing.state()).toEqual({ running: 0, waiting: 0 });
  });
});
