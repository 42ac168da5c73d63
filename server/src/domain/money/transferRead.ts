/**
 * getTransfer: a transfer the customer sent, read back by id (adr/0048). A transfer's answer
 * is stored under its Idempotency-Key in the same commit as its movements (adr/0016), so the
 * stored 201 is the transfer as it was sent, payee and all; no second copy of it is kept.
 * Read like any other read (the replica, or the primary for read-your-writes).
 */
import type { components } from '@tidewater/spec/openapi';
import type { Handlers } from '../../contract/operations.ts';
import { parseJsonColumn } from '../../data/statements.ts';
import { ApiProblem } from '../../errors/apiProblem.ts';
import type { DomainDeps } from '../deps.ts';

type Transfer = components['schemas']['Transfer'];

/** The handler of reading a transfer back. */
export function transferReadHandlers({ data }: DomainDeps): Pick<Handlers, 'getTransfer'> {
  return {
    async getTransfer({ caller, path }) {
      // The partial index of the migration account_opening_key serves exactly this predicate.
      const rows = await data.readDb().$queryRaw<{ responseBody: unknown }[]>`
        SELECT response_body AS "responseBody" FROM idempotency_records
        WHERE user_id = ${caller.userId}::uuid AND (response_body ->> 'id') = ${path.transferId}
          AND operation_id IN ('createInternalTransfer', 'createExternalTransfer') AND response_status = 201`;
      const row = rows[0];
      if (!row) throw new ApiProblem('NOT_FOUND', 'No transfer of yours has this id.');
      return { status: 200, body: parseJsonColumn<Transfer>(row.responseBody) };
    },
  };
}
