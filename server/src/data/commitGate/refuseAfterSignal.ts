import { currentContext, type RequestContext } from '../../request/requestContext.ts';
import { countCommitGateRefusal } from '../../metrics.ts';

/** Throws the request's abort reason when its signal fired: no statement starts after it (adr/0006). */
export function refuseAfterSignal(): void {
  const context = currentContext();
  if (!context?.signal.aborted) return;
  countCommitGateRefusal('statement');
  throw context.signal.reason;
}

/**
 * The refusal of a statement whose request's signal fired, in the form pg's `query` was
 * called in: its callback told on the next tick, or a rejected promise.
 */
export function refusedAfterSignal(context: RequestContext, values: unknown, callback: unknown): Promise<never> | undefined {
  countCommitGateRefusal('statement');
  const told = typeof callback === 'function' ? callback : typeof values === 'function' ? values : undefined;
  if (!told) return Promise.reject(context.signal.reason);
  process.nextTick(told as (error: unknown) => void, context.signal.reason);
  return undefined;
}
