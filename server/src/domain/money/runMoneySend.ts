/**
 * Drives every money send the same way (adr/0041, adr/0042):
 *
 * 1. claim the key (idempotency.ts): a replay, a 409 or a 422 ends here;
 * 2. `prepare` once: the send's order (moneySend.ts; input checks and a payee's handle only),
 *    after the rules have checked its `checkFirst` order when it has one (a transfer by
 *    handle: the authorisation and the account before the payee, adr/0064);
 * 3. wait in this process's account bulkhead for a permit (adr/0024), then ONE statement that is its
 *    own commit (adr/0027), up to ACCOUNT_WRITE_ATTEMPTS attempts when it loses its lock
 *    waits: the database's `money_send` locks, checks every rule, moves the money and lands
 *    the claim with its answer, or names the rule that refuses it. An unknown commit outcome
 *    is settled by looking for the landed claim, which reads the answer back;
 * 4. when every attempt lost its locks: the same function only checks, on fresh rows; busy
 *    (503, 1 s) only when it allows the send;
 * 5. send the bytes the database stored with the money.
 *
 * A refusal is worded here (refusals.ts) from the code the statement reports, stored as the
 * key's answer and sent as stored (adr/0048). Any other failure before any commit releases
 * the claim. A 503 says `applied: false` only when appliedRule.ts allows it. A claim lost
 * answers 503 without `applied` (adr/0029). Claiming, releasing and `applied` are
 * claimedRequest.ts's, which opening an account shares.
 */
import type { DomainDeps } from '../deps.ts';
import { isContentionExhausted } from '../../data/retry/index.ts';
import { statementsOf } from '../../data/statements.ts';
import { ApiProblem, isApiProblem } from '../../errors/apiProblem.ts';
import type { OperationId } from '@tidewater/spec/operations';
import type { OperationInput } from '../../contract/operations.ts';
import { currentContext } from '../../request/requestContext.ts';
import { noteUnavailableCause } from '../../metrics.ts';
import { verifyBy } from '../audit/auditedSave.ts';
import { claimedRequests } from '../idempotency/claimedRequest.ts';
import { ClaimTakenOver, hashRequest, idempotencyRecords, type Claim } from '../idempotency/idempotency.ts';
import { accountBulkhead } from './accountBulkhead.ts';
import { PermitWaitTimeout, type ReleasePermit } from '../bulkhead.ts';
import { sendStatement, type MoneySendFactory, type SendOrder, type Verdict } from './moneySend.ts';
import { refusalOf } from './refusals.ts';

/** Every attempt lost its locks and the rules allow the send: busy. */
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
  const accountPermits = accountBulkhead(Math.max(1, Math.floor(config.accountSendsAtOnce / Math.max(1, config.apiWorkers))));

  // A send's lock waits, all of them lost: after this long, busy (the bulkhead's queue counts against it).
  const contentionBudgetMs = config.accountWriteAttempts * config.accountLockWaitMs;

  const traceId = () => currentContext()?.traceId ?? null;

  async function moveMoney<Body>(label: string, order: SendOrder, claim: Claim): Promise<Body> {
    const accountIds = [order.fromAccountId, order.toAccountId].filter((id): id is string => id !== null);
    // Wait in this process's account bulkhead for a permit (adr/0024), holding no connection. The deadline
    // ends the wait; so does a whole send's worth of lock waits, spent by those ahead: busy then.
    const waitStarted = performance.now();
    let release: ReleasePermit;
    try {
      release = await accountPermits.acquire(accountIds, currentContext()?.signal, contentionBudgetMs);
    } catch (error) {
      if (error instanceof PermitWaitTimeout) return busyAfterLook(order, claim, 0);
      throw error;
    }
    try {
      // The attempts left after the wait, at least one: a send that queued still tries the lock itself.
      const waitedAttempts = Math.floor((performance.now() - waitStarted) / config.accountLockWaitMs);
      return await moveMoneyWithPermit<Body>(label, order, claim, Math.max(1, config.accountWriteAttempts - waitedAttempts));
    } finally {
      release();
    }
  }

  /** What the statement's verdict answers: the landed body, or the refusal it names. */
  function answerOf<Body>(done: Verdict<Body>, claim: Claim): Body {
    if (done.verdict === 'applied' && done.body !== undefined) return done.body;
    if (done.verdict === 'claim_lost') throw new ClaimTakenOver(claim.key);
    throw refusalOf(done.verdict, done.detail);
  }

  /**
   * Every attempt lost its locks, or the queue took a send's worth of them (`attempts` 0):
   * the same rules, checked on fresh rows without a lock, refuse the send, or busy ("send it again").
   */
  async function busyAfterLook(order: SendOrder, claim: Claim, attempts: number): Promise<never> {
    await refuseUnlessAllowed(order, claim);
    throw new AccountBusy(attempts);
  }

  /** The rules, checked on fresh rows without a lock: the refusal they name, if any. */
  async function refuseUnlessAllowed(order: SendOrder, claim: Claim): Promise<void> {
    const mode = { lockWaitMs: config.accountLockWaitMs, dailyLimitMinor: config.dailySendLimitMinor, checkOnly: true };
    const look = await data.read((db) => sendStatement(statementsOf(db), order, claim, traceId(), mode));
    if (look.verdict !== 'ok') throw refusalOf(look.verdict, look.detail);
  }

  async function moveMoneyWithPermit<Body>(label: string, order: SendOrder, claim: Claim, attempts: number): Promise<Body> {
    const mode = { lockWaitMs: config.accountLockWaitMs, dailyLimitMinor: config.dailySendLimitMinor, checkOnly: false };
    // The statement is its own commit (adr/0027): a lost answer is settled by looking for the landed claim, which reads the answer back.
    let landedBody: Body | undefined;
    try {
      const done = await data.runStatementAsCommit((sql) => sendStatement<Body>(sql, order, claim, traceId(), mode), {
        label,
        contentionAttempts: attempts,
        verifyCommitted: verifyBy(data, async () => (landedBody = await records.landedAnswer<Body>(claim)) !== undefined, config.idempotencyStoreBudgetMs),
        landedAnswer: () => ({ verdict: 'applied', body: landedBody, detail: null }),
      });
      return answerOf(done, claim);
    } catch (error) {
      if (!isContentionExhausted(error)) throw error;
      return busyAfterLook(order, claim, error.attempts);
    }
  }

  /** What a failed send answers (see the module's comment). */
  async function failureAnswer(failure: unknown, claim: Claim): Promise<unknown> {
    const settled = await claimed.refusedOrLost(failure, claim);
    if ('answer' in settled) return settled.answer;
    const { error } = settled;
    // A refusal the key does not store (a step-up to redo): the statement that named it committed, but moved nothing.
    if (isApiProblem(error) && error.status < 500) {
      await records.release(claim);
      return error;
    }
    const applied = await claimed.releaseUnlessCommitted(claim);
    if (error instanceof AccountBusy) {
      currentContext()?.log.info({ attempts: error.attempts, ...applied }, 'account busy: answering 503 after the rules allowed the send');
      noteUnavailableCause('busy_account');
      return new ApiProblem('SERVICE_UNAVAILABLE', 'The account is busy with other payments. Send it again in a moment with the same Idempotency-Key.', {
        retryAfterSeconds: config.busyRetryAfterSeconds,
        ...applied,
      });
    }
    return claimed.outageAnswer(error, applied, 'The service is temporarily unavailable and nothing was moved. Send it again later with the same Idempotency-Key.');
  }

  return async function run<K extends OperationId, Body>(
    input: OperationInput<K> & { readonly headers: { readonly 'Idempotency-Key': string } },
    pathParams: Record<string, string>,
    factory: MoneySendFactory,
  ): Promise<{ status: 201; body: Body; headers?: Record<string, string> }> {
    const userId = input.caller.userId;
    // The validator guarantees the header on every money send.
    const key = input.headers['Idempotency-Key'];
    const requestHash = hashRequest(input.operationId, pathParams, input.body);
    const outcome = await claimed.claimOrReplay({ userId, key, operationId: input.operationId, requestHash });
    if (outcome.kind === 'replay') return claimed.replayAnswer<Body>(outcome);
    const { claim } = outcome;
    const send = factory({ userId });
    try {
      if (send.checkFirst) await refuseUnlessAllowed(send.checkFirst, claim);
      const order = await send.prepare();
      return { status: 201, body: await moveMoney<Body>(send.label, order, claim) };
    } catch (error) {
      throw await failureAnswer(error, claim);
    }
  };
}
