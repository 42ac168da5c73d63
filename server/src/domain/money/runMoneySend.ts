/**
 * Drives every money send the same way (adr/0010):
 *
 * 1. claim the key (idempotency.ts): a replay, a 409 or a 422 ends here;
 * 2. `prepare` once (input, the payee's handle, the step-up authorisation);
 * 3. the gated transaction, up to ACCOUNT_WRITE_ATTEMPTS attempts when it loses its lock
 *    waits: lock the customer (when the send counts a ceiling) and the accounts in id
 *    order, each statement bounding its own lock waits, `check`, `save`, then land the claim with its answer (one
 *    statement, adr/0016). A send with `atOnce` (a deposit) does the lock, the save and the
 *    landing in one statement that is its own commit, and `check` words a refusal on the
 *    rows it locked (adr/0022, adr/0027). An
 *    unknown commit outcome is settled by looking for the request's own audit row
 *    (auditedSave.ts);
 * 4. when every attempt lost its locks: `check` again on fresh rows, then the
 *    authorisation again, and only when nothing refuses, 503 busy (1 s);
 * 5. send the bytes the database stored with the money.
 *
 * A final refusal of the bank's rules (a 404 or a 422 of `prepare` or `check`) is stored as
 * the key's answer and sent as stored (adr/0048). Any other failure before any commit releases the claim. A 503 says `applied: false` only when
 * appliedRule.ts allows it; an outage keeps its 503 from the problem handler otherwise.
 * A claim taken over answers 503 without `applied` (adr/0029). Claiming, releasing and `applied` are claimedRequest.ts's,
 * which opening an account shares.
 */
import type { DomainDeps } from '../deps.ts';
import { isContentionExhausted } from '../../data/retry/index.ts';
import { ApiProblem } from '../../errors/apiProblem.ts';
import type { OperationId } from '@tidewater/spec/operations';
import type { OperationInput } from '../../contract/operations.ts';
import { currentContext } from '../../request/requestContext.ts';
import { noteUnavailableCause } from '../../metrics.ts';
import { lookForOwnAuditRow, verifyBy } from '../audit/auditedSave.ts';
import { claimedRequests } from '../idempotency/claimedRequest.ts';
import { ClaimTakenOver, hashRequest, idempotencyRecords, type Claim } from '../idempotency/idempotency.ts';
import { lockAccounts, lockCustomer, readAccounts } from './accountRows.ts';
import { accountBulkhead } from './accountBulkhead.ts';
import { NoTurnInTime, type ReleaseTurn } from '../bulkhead.ts';
import type { AtOnce, MoneySend, MoneySendFactory } from './moneySend.ts';

/** Every attempt lost its locks and nothing an attempt looks at refused: busy. */
class AccountBusy extends Error {
  readonly attempts: number;
  constructor(attempts: number) {
    super(`the account stayed busy over ${attempts} attempts`);
    this.attempts = attempts;
  }
}

/** The runner of one deps; `run(input, pathParams, factory)` answers a send's 201. */
export function moneySendRunner({ data, config }: DomainDeps) {
  const records = idempotencyRecords(data, config);
  const claimed = claimedRequests(records, config);
  // ACCOUNT_SENDS_AT_ONCE is the instance's: each worker takes its share, at least one (adr/0024).
  const turns = accountBulkhead(Math.max(1, Math.floor(config.accountSendsAtOnce / Math.max(1, config.apiWorkers))));

  // A send's lock waits, all of them lost: after this long, busy (the line counts against it).
  const contentionBudgetMs = config.accountWriteAttempts * config.accountLockWaitMs;

  async function moveMoney<Plan, Body>(send: MoneySend<Plan, Body>, plan: Plan, claim: Claim): Promise<Body> {
    const accountIds = send.accountIds(plan);
    // Wait in this process's line for the account (adr/0024), holding no connection. The deadline
    // ends the wait; so does a whole send's worth of lock waits, spent by those ahead: busy then.
    const waitStarted = performance.now();
    let release: ReleaseTurn;
    try {
      release = await turns.take(accountIds, currentContext()?.signal, contentionBudgetMs);
    } catch (error) {
      if (error instanceof NoTurnInTime) return busyAfterRecheck(send, plan, accountIds, 0);
      throw error;
    }
    try {
      // The attempts left after the wait, at least one: a send in line still tries the lock itself.
      const waitedAttempts = Math.floor((performance.now() - waitStarted) / config.accountLockWaitMs);
      return await moveMoneyInTurn(send, plan, claim, accountIds, Math.max(1, config.accountWriteAttempts - waitedAttempts));
    } finally {
      release();
    }
  }

  /**
   * Every attempt lost its locks, or the line took a send's worth of them (`attempts` 0):
   * busy ("send it again"), once nothing an attempt looks at refuses it now.
   */
  async function busyAfterRecheck<Plan, Body>(send: MoneySend<Plan, Body>, plan: Plan, accountIds: string[], attempts: number): Promise<never> {
    const accounts = await data.read((db) => readAccounts(db, accountIds));
    await send.check(plan, { accounts, query: (fn) => data.read(fn) });
    await send.recheckBeforeBusy?.(plan);
    throw new AccountBusy(attempts);
  }

  /**
   * What a one-statement send's committed statement means (adr/0022, adr/0027). It posted
   * only what the database's own checks allowed, and only while the claim was this
   * request's: posted, it is the answer. Else `check` words the refusal; a claim taken over
   * answers 503 without `applied` (adr/0029); and a statement that refused what `check` allows is a bug.
   */
  async function afterOneStatement<Plan, Body>(send: MoneySend<Plan, Body>, plan: Plan, claim: Claim, done: AtOnce<Body>): Promise<Body> {
    const look: Parameters<typeof send.check>[1] = {
      accounts: done.accounts,
      query(fn) {
        return data.read(fn);
      },
    };
    if (done.moved && done.body !== undefined) {
      // Committed already: a `check` that refuses now cannot take it back, only say that the two rules differ.
      if (done.accounts.size > 0) await send.check(plan, look).catch((error: unknown) =>
        currentContext()?.log.error({ err: error, label: send.label }, 'the statement posted a send that check refuses: their rules differ'));
      return done.body;
    }
    await send.check(plan, look);
    if (!done.owned) throw new ClaimTakenOver(claim.key);
    throw new Error(`${send.label}: the statement refused a send its check allows`);
  }

  async function moveMoneyInTurn<Plan, Body>(send: MoneySend<Plan, Body>, plan: Plan, claim: Claim, accountIds: string[], attempts: number): Promise<Body> {
    const options = {
      label: send.label,
      contentionAttempts: attempts,
      verifyCommitted: lookForOwnAuditRow(data, claim.ownerToken, config.idempotencyStoreBudgetMs),
    };
    try {
      if (send.atOnce) {
        const oneStatement = send;
        // Its one statement is its own commit (adr/0027): a lost answer is settled by looking for the landed claim, which reads the answer back.
        let landedBody: Body | undefined;
        const done = await data.runStatementAsCommit((sql) => oneStatement.atOnce(sql, plan, claim, config.accountLockWaitMs), {
          label: send.label,
          contentionAttempts: attempts,
          verifyCommitted: verifyBy(data, async () => (landedBody = await records.landedAnswer<Body>(claim)) !== undefined, config.idempotencyStoreBudgetMs),
          landedAnswer() {
            return { accounts: new Map(), moved: true, owned: true, body: landedBody };
          },
        });
        return await afterOneStatement(send, plan, claim, done);
      }
      return await data.runInTransaction(
        async (tx) => {
          // Each locking statement bounds its own lock waits (ACCOUNT_LOCK_WAIT_MS).
          if (send.locksCustomer) await lockCustomer(tx, claim.userId, config.accountLockWaitMs);
          const accounts = await lockAccounts(tx, accountIds, config.accountLockWaitMs);
          await send.check(plan, { accounts, query: (fn) => fn(tx) });
          const body = await send.save(tx, plan, accounts);
          // Last look before COMMIT: is the claim still this request's? Its landing and its answer commit with the money.
          return records.land(tx, claim, 201, body);
        },
        options,
      );
    } catch (error) {
      if (!isContentionExhausted(error)) throw error;
      return busyAfterRecheck(send, plan, accountIds, error.attempts);
    }
  }

  /** What a failed send answers (see the module's comment). */
  async function failureAnswer(failure: unknown, claim: Claim): Promise<unknown> {
    let error = failure;
    try {
      const refusal = await claimed.refusalAnswer(error, claim);
      if (refusal) return refusal;
    } catch (storing) {
      // The refusal could not be stored: answered as what storing it met (the claim lost, or an outage that moved nothing).
      error = storing;
    }
    const lost = claimed.claimLostAnswer(error);
    if (lost) return lost;
    const applied = await claimed.releaseUnlessCommitted(claim);
    if (error instanceof AccountBusy) {
      currentContext()?.log.info({ attempts: error.attempts, ...applied }, 'account busy: answering 503 after re-checking');
      noteUnavailableCause('busy_account');
      return new ApiProblem('SERVICE_UNAVAILABLE', 'The account is busy with other payments. Send it again in a moment with the same Idempotency-Key.', {
        retryAfterSeconds: config.busyRetryAfterSeconds,
        ...applied,
      });
    }
    return claimed.outageAnswer(error, applied, 'The service is temporarily unavailable and nothing was moved. Send it again later with the same Idempotency-Key.');
  }

  return async function run<K extends OperationId, Plan, Body>(
    input: OperationInput<K> & { readonly headers: { readonly 'Idempotency-Key': string } },
    pathParams: Record<string, string>,
    factory: MoneySendFactory<Plan, Body>,
  ): Promise<{ status: 201; body: Body; headers?: Record<string, string> }> {
    const userId = input.caller.userId;
    // The validator guarantees the header on every money send.
    const key = input.headers['Idempotency-Key'];
    const requestHash = hashRequest(input.operationId, pathParams, input.body);
    const outcome = await claimed.claimOrReplay({ userId, key, operationId: input.operationId, requestHash });
    if (outcome.kind === 'replay') return claimed.replayAnswer<Body>(outcome);
    const { claim } = outcome;
    const send = factory({ userId, key, requestId: claim.ownerToken, traceId: currentContext()?.traceId ?? null });
    try {
      const plan = await send.prepare();
      return { status: 201, body: await moveMoney(send, plan, claim) };
    } catch (error) {
      throw await failureAnswer(error, claim);
    }
  };
}
