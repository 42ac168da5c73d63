/**
 * verifyCommitted of audited saves, against a stand-in data layer: it answers from the
 * request's own audit row, and looks once more under its own budget when the request's
 * signal fired after the commit was attempted; a look that found nothing is repeated once
 * the backend that received the COMMIT is done, and only then is it "not landed".
 */
import { describe, expect, it } from 'vitest';
import { pino } from 'pino';
import type { DataLayer } from '../../data/dataLayer.ts';
import { currentContext, runWithContext, type RequestContext } from '../../request/requestContext.ts';
import { DeadlineExceeded } from '../../request/deadlineExceeded.ts';
import { lookForOwnAuditRow } from './auditedSave.ts';

const mine = '00000000-0000-4000-8000-0000000000aa';

/** A client whose raw queries (Prisma Client's `$queryRaw`) each answer what `answer` gives. */
function statementsClient(answer: (strings: TemplateStringsArray, ...values: unknown[]) => Promise<unknown[]>): never {
  return { $queryRaw: answer, $executeRaw: async () => 0 } as never;
}

/** A data layer whose reads see `rows` and refuse, as the gate does, once the current signal fired. */
function standIn(rows: Set<string>, seen: AbortSignal[] = []): Pick<DataLayer, 'read'> {
  return {
    async read(fn) {
      const signal = currentContext()?.signal;
      if (signal) seen.push(signal);
      if (signal?.aborted) throw signal.reason;
      return fn(statementsClient(async (_strings, ...values) => [{ found: rows.has(String(values[0])) }]));
    },
  };
}

function context(signal: AbortSignal): RequestContext {
  return { traceId: 't', log: pino({ level: 'silent' }), signal } as RequestContext;
}

describe('lookForOwnAuditRow', () => {
  it.each([
    ['its audit row exists: the commit landed', new Set([mine]), true],
    ['no row of this request: it did not land', new Set(['00000000-0000-4000-8000-0000000000bb']), false],
  ])('%s', async (_name, rows, want) => {
    const verify = lookForOwnAuditRow(standIn(rows), mine, 3_000);
    expect(await runWithContext(context(new AbortController().signal), () => verify({}))).toBe(want);
  });

  it("looks under its own budget when the request's signal already fired", async () => {
    const fired = new AbortController();
    fired.abort(new Error('deadline'));
    const seen: AbortSignal[] = [];
    const verify = lookForOwnAuditRow(standIn(new Set([mine]), seen), mine, 3_000);
    expect(await runWithContext(context(fired.signal), () => verify({}))).toBe(true);
    expect(seen).toHaveLength(1);
    expect(seen[0]).not.toBe(fired.signal);
    expect(seen[0]!.aborted).toBe(false);
  });

  it('looks once more under its own budget when the signal fires during the first look', async () => {
    const controller = new AbortController();
    const seen: AbortSignal[] = [];
    const inner = standIn(new Set([mine]), seen);
    let first = true;
    const racing: Pick<DataLayer, 'read'> = {
      read: (fn) => {
        if (first) {
          first = false;
          controller.abort(new Error('deadline'));
        }
        return inner.read(fn);
      },
    };
    const verify = lookForOwnAuditRow(racing, mine, 3_000);
    expect(await runWithContext(context(controller.signal), () => verify({}))).toBe(true);
    expect(seen.map((signal) => signal === controller.signal)).toEqual([true, false]);
  });

  it('lets a failure of a live request through (the data layer decides)', async () => {
    const failing: Pick<DataLayer, 'read'> = { read: async () => Promise.reject(new Error('connection refused')) };
    const verify = lookForOwnAuditRow(failing, mine, 3_000);
    await expect(runWithContext(context(new AbortController().signal), () => verify({}))).rejects.toThrow('connection refused');
  });

  describe('a COMMIT whose backend is still at work', () => {
    /**
     * A database where backend 4711 shows `before` (busy by default) for `busyPolls` looks at
     * pg_stat_activity, then commits the row and goes idle. The server's clock is the poll's number.
     */
    function committingLate(busyPolls: number, before: 'active' | 'idle' = 'active') {
      const rows = new Set<string>();
      let polls = 0;
      const at = (n: number) => new Date(Date.UTC(2026, 11, 6, 12, 0, 0, n));
      const data: Pick<DataLayer, 'read'> = {
        async read(fn) {
          const signal = currentContext()?.signal;
          if (signal?.aborted) throw signal.reason;
          return fn(
            statementsClient(async (strings, ...values) => {
              if (!strings.join('?').includes('pg_stat_activity')) return [{ found: rows.has(String(values[0])) }];
              expect(values[0]).toBe(4711);
              polls += 1;
              if (polls <= busyPolls) return [{ now: at(polls), present: true, state: before, changed: at(0) }];
              rows.add(mine);
              return [{ now: at(polls), present: true, state: 'idle', changed: at(polls) }];
            }),
          );
        },
      };
      return { data, polls: () => polls };
    }

    it('finds nothing at first, waits for the backend, and then finds its row: landed', async () => {
      const late = committingLate(3);
      const verify = lookForOwnAuditRow(late.data, mine, 3_000);
      expect(await runWithContext(context(new AbortController().signal), () => verify({ backendPid: 4711 }))).toBe(true);
      expect(late.polls()).toBe(4);
    });

    it('a backend idle since before the wait (its statement not read yet) is no proof: the look waits until it moved', async () => {
      const late = committingLate(3, 'idle');
      const verify = lookForOwnAuditRow(late.data, mine, 3_000);
      expect(await runWithContext(context(new AbortController().signal), () => verify({ backendPid: 4711 }))).toBe(true);
      expect(late.polls()).toBe(4);
    });

    it('without a backend to wait for (PGlite), one look that finds nothing says not landed', async () => {
      const late = committingLate(3);
      const verify = lookForOwnAuditRow(late.data, mine, 3_000);
      expect(await runWithContext(context(new AbortController().signal), () => verify({}))).toBe(false);
      expect(late.polls()).toBe(0);
    });

    it('a backend busy beyond the budget leaves the outcome unknown: it throws, it never says not landed', async () => {
      const late = committingLate(Number.POSITIVE_INFINITY);
      const fired = new AbortController();
      fired.abort(new Error('deadline'));
      const verify = lookForOwnAuditRow(late.data, mine, 150);
      await expect(runWithContext(context(fired.signal), () => verify({ backendPid: 4711 }))).rejects.toBeInstanceOf(DeadlineExceeded);
      expect(late.polls()).toBeGreaterThan(1);
    });
  });
});
