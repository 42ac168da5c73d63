/**
 * Opening an account, with or without an Idempotency-Key; under one (adr/0013), by the money sends' protocol
 * (idempotency.ts) run the money sends' way (claimedRequest.ts, adr/0041): claim the key (a
 * replay, a 409 or a 422 ends here); then ONE statement that is its own commit, the
 * database's `open_account`: it locks the claim and the customer, keeps the customer within
 * MAX_OPEN_ACCOUNTS_PER_CUSTOMER open accounts (422 ACCOUNT_LIMIT_REACHED, stored as the
 * key's answer), inserts the account and lands the claim with its answer; send the stored
 * bytes. A failure before any commit releases the claim; an outage that opened nothing
 * answers 503 with `applied: false`. A statement whose answer was lost is settled by looking
 * for the landed claim, which reads the answer back.
 */
import type { components } from '@tidewater/spec/openapi';
import { statementsOf, type Statements } from '../../data/statements.ts';
import { claimedRequests } from '../idempotency/claimedRequest.ts';
import type { DomainDeps } from '../deps.ts';
import { hashRequest, idempotencyRecords, type Claim } from '../idempotency/idempotency.ts';
import { lockWait } from '../money/accountRows.ts';
import { answerOf, claimedStatements, verdictOf, type VerdictRow } from '../money/moneyStatement.ts';
import { writtenText } from '../writtenText.ts';

type Account = components['schemas']['Account'];

/** What one opening needs. */
export interface Opening {
  userId: string;
  /** Absent: every request opens an account. */
  key: string | undefined;
  /** The request's body as validated (hashed as sent). */
  body: { name: string };
}

/** The opener of one deps; `open(opening)` answers the 201 (the first one, or its replay). */
export function accountOpener({ data, config }: DomainDeps) {
  const records = idempotencyRecords(data, config);
  const claimed = claimedRequests(records, config);
  const runStatement = claimedStatements(data, records, config.idempotencyStoreBudgetMs);

  const openStatement = (claim: Claim | undefined, userId: string, key: string | null, name: string) => async (sql: Statements) =>
    verdictOf<Account>((await sql.query<VerdictRow>`
      SELECT verdict, body, detail FROM open_account(${claim?.id ?? null}::uuid, ${claim?.ownerToken ?? null}::uuid, ${userId}::uuid, ${key}::text,
        ${name}::text, ${lockWait(config.accountLockWaitMs)}::text, ${config.maxOpenAccountsPerCustomer}::int)`)[0]);

  async function openUnderClaim(claim: Claim, name: string): Promise<Account> {
    return answerOf(await runStatement('openAccount', claim, openStatement(claim, claim.userId, claim.key, name)), claim.key);
  }

  /** What a failed keyed opening answers (as a failed money send does, runMoneySend.ts). */
  async function failureAnswer(failure: unknown, claim: Claim): Promise<unknown> {
    const settled = await claimed.refusedOrLost(failure, claim);
    if ('answer' in settled) return settled.answer;
    const { error } = settled;
    const applied = await claimed.releaseUnlessCommitted(claim);
    return claimed.outageAnswer(error, applied, 'The service is temporarily unavailable and no account was opened. Send it again later with the same Idempotency-Key.');
  }

  return async function open({ userId, key, body }: Opening): Promise<{ status: 201; body: Account; headers?: Record<string, string> }> {
    const name = writtenText(body.name);
    // Without a key every request opens an account: one plain write, under the same bound.
    if (key === undefined) return { status: 201, body: answerOf(await data.write((db) => openStatement(undefined, userId, null, name)(statementsOf(db))), '') };
    const requestHash = hashRequest('openAccount', {}, body);
    const outcome = await claimed.claimOrReplay({ userId, key, operationId: 'openAccount', requestHash });
    if (outcome.kind === 'replay') return claimed.replayAnswer<Account>(outcome);
    const { claim } = outcome;
    try {
      return { status: 201, body: await openUnderClaim(claim, name) };
    } catch (error) {
      throw await failureAnswer(error, claim);
    }
  };
}
