/**
 * Opening an account under an Idempotency-Key (adr/0013), by the money sends' protocol
 * (idempotency.ts) run the money sends' way (claimedRequest.ts): claim the key (a replay,
 * a 409 or a 422 ends here); insert the account in one gated transaction that then lands
 * the claim with its answer (adr/0016), so both commit with the account; send the stored
 * bytes. A failure before any commit releases the claim; an outage
 * that opened nothing answers 503 with `applied: false`. A COMMIT whose answer was lost
 * is settled by looking for the account by the id the request chose. A stale claim that
 * opened an account answers 409 RESULT_UNKNOWN with `applied: true`, for good.
 */
import { randomUUID } from 'node:crypto';
import type { components } from '@tidewater/spec/openapi';
import { verifyBy } from '../audit/auditedSave.ts';
import { claimedRequests } from '../idempotency/claimedRequest.ts';
import type { DomainDeps } from '../deps.ts';
import { hashRequest, idempotencyRecords } from '../idempotency/idempotency.ts';
import { toAccount } from '../wireViews.ts';
import { writtenText } from '../writtenText.ts';

type Account = components['schemas']['Account'];

/** What one opening needs. */
export interface Opening {
  userId: string;
  key: string;
  /** The request's body as validated (hashed as sent). */
  body: { name: string };
  primaryAccountId: string | null;
}

/** The opener of one deps; `open(opening)` answers the 201 (the first one, or its replay). */
export function accountOpener({ data, config }: DomainDeps) {
  const records = idempotencyRecords(data, config);
  const claimed = claimedRequests(records, config);

  const accountExists = (id: string) => async () =>
    (await data.read((db) => db.account.count({ where: { id } }))) === 1;

  return async function open({ userId, key, body, primaryAccountId }: Opening): Promise<{ status: 201; body: Account; headers?: Record<string, string> }> {
    const requestHash = hashRequest('openAccount', {}, body);
    const outcome = await claimed.claimOrReplay({ userId, key, operationId: 'openAccount', requestHash });
    if (outcome.kind === 'replay') return claimed.replayAnswer<Account>(outcome);
    const { claim } = outcome;
    const id = randomUUID();
    try {
      const stored = await data.runInTransaction(
        async (tx) => {
          const row = await tx.account.create({ data: { id, userId, name: writtenText(body.name), idempotencyKey: key } });
          return records.land(tx, claim, 201, toAccount(row, primaryAccountId));
        },
        { label: 'openAccount', verifyCommitted: verifyBy(data, accountExists(id), config.idempotencyStoreBudgetMs) },
      );
      return { status: 201, body: stored };
    } catch (error) {
      const lost = claimed.claimLostAnswer(error);
      if (lost) throw lost;
      const applied = await claimed.releaseUnlessCommitted(claim);
      throw claimed.outageAnswer(error, applied, 'The service is temporarily unavailable and no account was opened. Send it again later with the same Idempotency-Key.');
    }
  };
}
