/**
 * The one AsyncLocalStorage of the API (adr/0025). Node 20 copies the store of every
 * AsyncLocalStorage that ever ran onto every promise it makes, so each one more costs
 * every `await` of every request, the layers' and Express's alike: three of them made a
 * promise about 1.7 times dearer than one. So the request's context, the transaction
 * attempt and the circuit breakers it met are slots of one store instead.
 *
 * A slot's `run` gives `fn` a new frame: a copy of the current one (a few slots) with
 * its own value set, so the slots of the frames around it stay visible and nothing
 * outside `fn` sees the new value.
 */
import { AsyncLocalStorage } from 'node:async_hooks';

type Frame = unknown[];

const storage = new AsyncLocalStorage<Frame>();
let slotsMade = 0;

/** One named value of the current async scope. */
export interface ScopeSlot<T> {
  /** Runs `fn` with this slot set to `value` (the other slots as they are). */
  run<R>(value: T, fn: () => R): R;
  /** This slot's value in the current scope, if one was set. */
  get(): T | undefined;
}

/** A new slot; made once per module, at load. */
export function scopeSlot<T>(): ScopeSlot<T> {
  const index = slotsMade++;
  return {
    run(value, fn) {
      const frame: Frame = storage.getStore()?.slice() ?? [];
      frame[index] = value;
      return storage.run(frame, fn);
    },
    get: () => storage.getStore()?.[index] as T | undefined,
  };
}
