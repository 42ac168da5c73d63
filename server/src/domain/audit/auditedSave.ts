/**
 * `verifyCommitted` for audited saves (adr/0010, "Audit chain"; adr/0026): when a COMMIT's
 * answer was lost, the data layer asks whether it landed before it runs the transaction
 * again. An audited save answers by looking for its own audit row, found by the request id
 * it stamped on every row it wrote (`audit_rows.request_id`, indexed).
 *
 * A look that finds nothing is a proof only once the server process that received the
 * COMMIT has ended or left its transaction: a lost connection is often noticed by the API
 * first, while that process is still committing, or has not even read the statement yet
 * (adr/0026). So "not found" waits for it, polling `pg_stat_activity` on the primary, and
 * looks again once it ended or went idle after the wait began.
 *
 * When the request's signal fired after the commit was attempted (its deadline or a
 * hang-up re-armed by the failed commit), the request may run no statement of its own:
 * the look runs once more under a budget of its own (IDEMPOTENCY_STORE_BUDGET_MS, 3 s),
 * reading the primary, and the answer waits for it (the router: `requestIsSettlingCommit`), so a
 * send that landed answers 201. A look that cannot finish within it leaves the outcome unknown.
 */
import { setTimeout as delay } from 'node:timers/promises';
import type { DataLayer, LostCommit } from '../../data/dataLayer.ts';
import { currentContext } from '../../request/requestContext.ts';
import { runSideWrite } from '../sideWrites.ts';
import { countAuditedSaveCheck } from '../../metrics.ts';

/** Did a row stamped with `requestId` commit? */
async function auditRowExists(data: Pick<DataLayer, 'read'>, requestId: string): Promise<boolean> {
  const rows = await data.read((db) => db.$queryRaw<{ found: boolean }[]>`
    SELECT EXISTS (SELECT 1 FROM audit_rows WHERE request_id = ${requestId}::uuid) AS found`);
  return rows[0]?.found === true;
}

/** What the data layer asks after a lost COMMIT (dataLayer.ts `verifyCommitted`). */
export type VerifyCommitted = (lost: LostCommit) => Promise<boolean>;

/** The `verifyCommitted` of an audited save stamped with `requestId`. */
export function lookForOwnAuditRow(data: Pick<DataLayer, 'read'>, requestId: string, budgetMs: number): VerifyCommitted {
  return verifyBy(data, () => auditRowExists(data, requestId), budgetMs);
}

/**
 * A `verifyCommitted` from a look for what the save wrote, made a proof by waiting for the
 * COMMIT's backend (see above): under the request's signal, and once more under a budget of
 * its own when that signal has fired.
 */
export function verifyBy(data: Pick<DataLayer, 'read'>, look: () => Promise<boolean>, budgetMs: number): VerifyCommitted {
  return (lost) =>
    verifyOnce(() => lookOnceSettled(data, look, lost), budgetMs).then(
      (landed) => {
        countAuditedSaveCheck(landed ? 'landed' : 'not_landed');
        return landed;
      },
      (error: unknown) => {
        countAuditedSaveCheck('unknown');
        throw error;
      },
    );
}

/** Runs `check` under the request's signal, or under a budget of its own once that signal fired. */
async function verifyOnce(check: () => Promise<boolean>, budgetMs: number): Promise<boolean> {
  if (!currentContext()?.signal.aborted) {
    try {
      return await check();
    } catch (error) {
      if (!currentContext()?.signal.aborted) throw error;
    }
  }
  return runSideWrite(check, { budgetMs });
}

/** The look, repeated until the COMMIT's backend is done with it, when the first found nothing. */
async function lookOnceSettled(data: Pick<DataLayer, 'read'>, look: () => Promise<boolean>, lost: LostCommit): Promise<boolean> {
  if (await look()) return true;
  if (lost.backendPid === undefined) return false;
  const startedAt = performance.now();
  const landed = await lookWhenSettled(data, look, lost.backendPid);
  currentContext()?.log.info({ backendPid: lost.backendPid, waitedMs: Math.round(performance.now() - startedAt), landed }, 'looked again once the backend of a lost COMMIT was done');
  return landed;
}

/** How often `pg_stat_activity` is read while the COMMIT's backend is still busy. */
const BACKEND_POLL_MS = 20;

/** Server process `pid` as `pg_stat_activity` shows it, and the server's clock. */
interface BackendRow {
  now: Date;
  present: boolean;
  state: string | null;
  changed: Date | null;
}

/**
 * The look, once server process `pid` is done with what it was sent: it has ended, or it went
 * idle (outside a transaction) while this waited. A process idle since before the wait began
 * may not have read the statement yet (it can sit in its socket on a loaded machine), so it
 * proves only what the look finds; the wait goes on until it moves, ends, or the current
 * signal ends the wait. The connection kept after a refused COMMIT may be the one that asks:
 * running this query, it is done with that transaction.
 */
async function lookWhenSettled(data: Pick<DataLayer, 'read'>, look: () => Promise<boolean>, pid: number): Promise<boolean> {
  let since: Date | undefined;
  for (;;) {
    // An aggregate without GROUP BY: one row, whether the process is there or not.
    const [row] = await data.read((db) => db.$queryRaw<BackendRow[]>`
      SELECT clock_timestamp() AS now, count(*) > 0 AS present, max(state) AS state, max(state_change) AS changed
      FROM pg_stat_activity
      WHERE pid = ${pid}::int AND pid <> pg_backend_pid()`);
    since ??= row?.now;
    if (!row?.present) return look();
    if (row.state === 'idle' || row.state === 'idle in transaction (aborted)') {
      if (since && row.changed && row.changed.getTime() >= since.getTime()) return look();
      if (await look()) return true;
    }
    await delay(BACKEND_POLL_MS, undefined, { signal: currentContext()?.signal });
  }
}
