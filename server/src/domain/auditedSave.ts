/**
 * `verifyCommitted` for audited saves (adr/0010, "Audit chain"): when a COMMIT's answer was
 * lost, the data layer asks whether it landed before it runs the transaction again. An
 * audited save answers by looking for its own audit row, found by the request id it
 * stamped on every row it wrote (`audit_rows.request_id`, indexed).
 *
 * When the request's signal fired after the commit was attempted (its deadline or a
 * hang-up re-armed by the failed commit), the request may run no statement of its own:
 * the look runs once more under a budget of its own (IDEMPOTENCY_STORE_BUDGET_MS, 3 s),
 * reading the primary.
 */
import type { DataLayer } from '../data/dataLayer.ts';
import { currentContext } from '../request/requestContext.ts';
import { runSideWrite } from './sideWrites.ts';
import { countAuditedSaveCheck } from '../metrics.ts';

/** Did a row stamped with `requestId` commit? */
async function auditRowExists(data: Pick<DataLayer, 'read'>, requestId: string): Promise<boolean> {
  const rows = await data.read((db) => db.$queryRaw<{ found: boolean }[]>`
    SELECT EXISTS (SELECT 1 FROM audit_rows WHERE request_id = ${requestId}::uuid) AS found`);
  return rows[0]?.found === true;
}

/** The `verifyCommitted` of an audited save stamped with `requestId`. */
export function lookForOwnAuditRow(data: Pick<DataLayer, 'read'>, requestId: string, budgetMs: number): () => Promise<boolean> {
  return verifyBy(() => auditRowExists(data, requestId), budgetMs);
}

/**
 * A `verifyCommitted` from one look for what the save wrote: under the request's signal,
 * and once more under a budget of its own when that signal has fired (see above).
 */
export function verifyBy(look: () => Promise<boolean>, budgetMs: number): () => Promise<boolean> {
  const check = verifyOnce(look, budgetMs);
  return () =>
    check().then(
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

/** The look itself (see `verifyBy`). */
function verifyOnce(look: () => Promise<boolean>, budgetMs: number): () => Promise<boolean> {
  return async () => {
    if (!currentContext()?.signal.aborted) {
      try {
        return await look();
      } catch (error) {
        if (!currentContext()?.signal.aborted) throw error;
      }
    }
    return runSideWrite(look, { budgetMs });
  };
}
