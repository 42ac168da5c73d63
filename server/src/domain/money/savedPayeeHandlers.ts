/**
 * Saved payees (adr/0072): everyone a customer has paid by handle or by IBAN, read from the
 * customer's own outgoing movements, the most recently paid first. The ledger is the one
 * record of who was paid: a payee is saved by the send that landed, whichever tab or client
 * sent it, with no second copy to drift from it. A payee by handle carries the name the bank
 * holds now; the SPA runs confirmation of payee again when one is picked (getPayee).
 */
import type { components } from '@tidewater/spec/openapi';
import type { Handlers } from '../../contract/operations.ts';
import type { DomainDeps } from '../deps.ts';

/** 20: the payees listed, the most recently paid first; a picker longer than this is a search. */
const SAVED_PAYEES_LISTED = 20;

type SavedPayee = components['schemas']['SavedPayee'];

interface PaidRow {
  kind: 'transfer_out' | 'external_out';
  counterparty: string;
  displayName: string | null;
  lastPaidAt: Date;
}

/** The handler of listing saved payees. */
export function savedPayeeHandlers({ data }: DomainDeps): Pick<Handlers, 'listSavedPayees'> {
  return {
    async listSavedPayees({ caller }) {
      // A transfer by handle keeps `@handle` as its counterparty (one to an own account by id keeps
      // the account's name, and is no payee); one by IBAN keeps `Beneficiary (IBAN)`.
      const rows = await data.readDb().$queryRaw<PaidRow[]>`
        SELECT paid.kind, paid.counterparty, users.display_name AS "displayName", paid.last_paid_at AS "lastPaidAt"
        FROM (
          SELECT e.kind, e.counterparty, max(e.created_at) AS last_paid_at
          FROM ledger_entries e JOIN accounts a ON a.id = e.account_id
          WHERE a.user_id = ${caller.userId}::uuid
            AND (e.kind = 'external_out' OR (e.kind = 'transfer_out' AND e.counterparty LIKE '@%'))
          GROUP BY e.kind, e.counterparty
          ORDER BY last_paid_at DESC LIMIT ${SAVED_PAYEES_LISTED}::int
        ) paid
        LEFT JOIN users ON paid.kind = 'transfer_out' AND users.handle = substr(paid.counterparty, 2)
        ORDER BY paid.last_paid_at DESC`;
      const items = rows.flatMap((row): SavedPayee[] => {
        const lastPaidAt = new Date(row.lastPaidAt).toISOString();
        if (row.kind === 'transfer_out') {
          return row.displayName ? [{ kind: 'handle', handle: row.counterparty.slice(1), name: row.displayName, lastPaidAt }] : [];
        }
        const open = row.counterparty.lastIndexOf(' (');
        return [{ kind: 'iban', iban: row.counterparty.slice(open + 2, -1), name: row.counterparty.slice(0, open), lastPaidAt }];
      });
      return { status: 200, body: { items } };
    },
  };
}
