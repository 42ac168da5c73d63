/**
 * Side writes of a request (an idempotency claim, its stored answer, its release,
 * an audited save's look for its own row) run beside the request's own work, not as it:
 *
 * - in a copy of the request's context, so a commit they cause never counts as the
 *   request's commits (they speak of money: adr/0010, adr/0052);
 * - optionally under a budget of their own (IDEMPOTENCY_STORE_BUDGET_MS and
 *   IDEMPOTENCY_RELEASE_BUDGET_MS, 3 s each): the copy's signal fires when the budget is
 *   spent, not when the request's deadline fires, so a release can still run after the
 *   deadline and an answer can be stored after the commit disarmed it (adr/0010).
 *
 * The data layer and the commit gate read the signal from the current context, so both
 * honour the budget. A write the copy made still marks the request as one that wrote.
 */
import { DeadlineExceeded } from '../request/deadlineExceeded.ts';
import { currentContext, runWithContext, type RequestContext } from '../request/requestContext.ts';

/** Options of one side write. */
export interface SideWriteOptions {
  /** Its own budget: it ends with a DeadlineExceeded (an outage) when spent. Without it, the request's signal. */
  budgetMs?: number;
}

/** Runs one side write as described above. */
export async function runSideWrite<T>(work: () => Promise<T>, options: SideWriteOptions = {}): Promise<T> {
  const context = currentContext();
  const controller = options.budgetMs === undefined ? undefined : new AbortController();
  const timer = controller && setTimeout(() => controller.abort(new DeadlineExceeded(options.budgetMs!)), options.budgetMs);
  // The logger is read through the request's own context when a line is written: a request's
  // logger is made on its first use (adr/0028), and a copied value would make one for every
  // side write. (A getter of the request's context is not an own property: a spread drops it.)
  const scope: RequestContext | undefined = context && {
    ...context,
    commits: undefined,
    signal: controller?.signal ?? context.signal,
    get log() {
      return context.log;
    },
  };
  const run = scope ? runWithContext(scope, work) : work();
  try {
    if (!controller) return await run;
    const spent = new Promise<never>((_, reject) => {
      controller.signal.addEventListener('abort', () => reject(controller.signal.reason), { once: true });
    });
    return await Promise.race([run, spent]);
  } finally {
    if (timer) clearTimeout(timer);
    if (context && scope?.hasWrites) context.hasWrites = true;
    run.catch(() => {}); // a step cut off by its budget may still fail later: nobody waits for it
  }
}
