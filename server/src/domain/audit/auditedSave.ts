/**
 * `verifyCommitted` for audited saves (adr/0010, "Audit chain"; adr/0026): when a COMMIT's
 * answer was lost, the data layer asks whether it landed before it runs the transaction
 * again. An audited save answers by looking for its own audit row, found by the request id
 * it stamped on every row it wrote (`audit_rows.request_id`, indexed).
 *
 * A look that finds nothing is a proof only once the server process that received the
 * COMMIT has ended or left its transaction: a lost connection is often noticed by the API
 * first, while that process is still committing (adr/0026). So "not found" waits for it,
 * polling `pg_stat_activity` on the primary, and looks once more.
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

/** The look, repeated once the COMMIT's backend is done with its transaction when the first found nothing. */
async function lookOnceSettled(data: Pick<DataLayer, 'read'>, look: () => Promise<boolean>, lost: LostCommit): Promise<boolean> {
  if (await look()) return true;
  if (lost.backendPid === undefined) return false;
  const startedAt = performance.now();
  await backendDone(data, lost.backendPid);
  const landed = await look();
  currentContext()?.log.info({ backendPid: lost.backendPid, waitedMs: Math.round(performance.now() - startedAt), landed }, 'looked again once the backend of a lost COMMIT was done');
  return landed;
}

/** How often `pg_stat_activity` is read while the COMMIT's backend is still busy. */
const BACKEND_POLL_MS = 20;

/**
 * Resolves once server process `pid` has ended or sits idle outside a transaction (its
 * transaction committed or rolled back for good); bounded by the current signal. The
 * connection kept after a refused COMMIT may be the one that asks: running this query,
 * it is done with that transaction.
 */
async function backendDone(data: Pick<DataLayer, 'read'>, pid: number): Promise<void> {
  for (;;) {
    const rows = await data.read((db) => db.$queryRaw<{ busy: boolean }[]>`
      SELECT EXISTS (
        SELECT 1 FROM pg_stat_activity
        WHERE pid = ${pid}::int AND pid <> pg_backend_pid() AND coalesce(state, '') NOT IN ('idle', 'idle in transaction (aborted)')
      ) AS busy`);
    if (rows[0]?.busy !== true) return;
    await delay(BACKEND_POLL_MS, undefined, { signal: currentContext()?.signal });
  }
}
