import { currentContext } from '../../request/requestContext.ts';
import { countCommitGateRefusal } from '../../metrics.ts';

/** Throws the request's abort reason when its signal fired: no statement starts after it (adr/0006). */
export function refuseAfterSignal(): void {
  const context = currentContext();
  if (!context?.signal.aborted) return;
  countCommitGateRefusal('statement');
  throw context.signal.reason;
}
