import { describe, expect, it } from 'vitest';
import { pino } from 'pino';
import { isDeadlineExceeded } from '../request/deadlineExceeded.ts';
import { currentContext, runWithContext, type RequestContext } from '../request/requestContext.ts';
import { Commit, noteRequestCommit, requestMayHaveMoved } from '../request/commitOutcome.ts';
import { runSideWrite } from './sideWrites.ts';

function requestContext(signal: AbortSignal): RequestContext {
  return { traceId: 't', log: pino({ level: 'silent' }), signal } as RequestContext;
}

describe('runSideWrite', () => {
  it("keeps a step's commit off the request's commits, but not its writes", async () => {
    const context = requestContext(new AbortController().signal);
    await runWithContext(context, () =>
      runSideWrite(async () => {
        const commit = new Commit();
        noteRequestCommit(currentContext(), commit);
        commit.send();
        currentContext()!.hasWrites = true;
      }),
    );
    expect(requestMayHaveMoved(context)).toBe(false);
    expect(context.hasWrites).toBe(true);
  });

  it("runs under its own budget after the request's signal fired", async () => {
    const fired = new AbortController();
    fired.abort(new Error('deadline'));
    const seen = await runWithContext(requestContext(fired.signal), () =>
      runSideWrite(async () => currentContext()!.signal.aborted, { budgetMs: 1_000 }),
    );
    expect(seen).toBe(false);
  });

  it('ends with a DeadlineExceeded when its budget is spent', async () => {
    const never = new Promise<never>(() => {});
    const outcome = await runSideWrite(() => never, { budgetMs: 20 }).catch((error: unknown) => error);
    expect(isDeadlineExceeded(outcome)).toBe(true);
  });

  it("without a budget, shares the request's signal", async () => {
    const controller = new AbortController();
    const signal = await runWithContext(requestContext(controller.signal), () =>
      runSideWrite(async () => currentContext()!.signal),
    );
    expect(signal).toBe(controller.signal);
  });
});
