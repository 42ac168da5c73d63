import { setTimeout as sleep } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import { scopeSlot } from './asyncScope.ts';

describe('asyncScope: slots of one AsyncLocalStorage', () => {
  const request = scopeSlot<string>();
  const attempt = scopeSlot<number>();

  it('a slot is empty outside its run, and set inside it across awaits, timers and callbacks', async () => {
    expect(request.get()).toBeUndefined();
    const seen = await request.run('r1', async () => {
      const before = request.get();
      await sleep(1);
      const afterTimer = request.get();
      const inCallback = await new Promise<string | undefined>((resolve) => setImmediate(() => resolve(request.get())));
      return [before, afterTimer, inCallback];
    });
    expect(seen).toEqual(['r1', 'r1', 'r1']);
    expect(request.get()).toBeUndefined();
  });

  it("one slot's run keeps the other slots of the scope around it", async () => {
    const seen = await request.run('r1', () => attempt.run(1, async () => {
      await sleep(1);
      return [request.get(), attempt.get()];
    }));
    expect(seen).toEqual(['r1', 1]);
  });

  it('an inner run shadows the slot for its own work only', async () => {
    const seen = await request.run('outer', async () => {
      const inner = await request.run('inner', async () => {
        await sleep(1);
        return request.get();
      });
      return [inner, request.get()];
    });
    expect(seen).toEqual(['inner', 'outer']);
  });

  it('what one branch sets is never seen by its sibling or its parent (the frame is copied, not changed)', async () => {
    const seen = await request.run('r1', async () => {
      const [setter, sibling] = await Promise.all([
        attempt.run(7, async () => {
          await sleep(5);
          return attempt.get();
        }),
        (async () => {
          await sleep(1);
          return attempt.get();
        })(),
      ]);
      return [setter, sibling, attempt.get(), request.get()];
    });
    expect(seen).toEqual([7, undefined, undefined, 'r1']);
  });

  it('concurrent runs of one slot each see their own value', async () => {
    const values = await Promise.all(
      ['a', 'b', 'c'].map((value, i) => request.run(value, async () => {
        await sleep(3 - i);
        return request.get();
      })),
    );
    expect(values).toEqual(['a', 'b', 'c']);
  });
});
