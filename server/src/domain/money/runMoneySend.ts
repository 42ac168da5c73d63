/**
 * Drives every money send the same way (adr/0041, adr/0042, adr/0070):
 *
 * 1. a send whose order the request's input alone settles (no `checkFirst`), with a permit
 *    of this process's account bulkhead free at once (adr/0024), is ONE statement and one
 *    commit: `money_send_claiming` claims the key, checks every rule, moves the money and
 *    lands the claim with its answer, or answers what the key's record says (a replay, a
 *    409 or a 422) having written nothing. A statement that ran to no commit (its locks
 *    lost, an outage before its end) left nothing: the key is then claimed alone, and the
 *    send answers as one that held its claim (busy, or 503 `applied: false`);
 * 2. any other send claims the key first (idempotency.ts; a replay, a 409 or a 422 ends
 *    here), so a second request with the key answers 409 while it waits; `prepare` runs
 *    once, after the rules checked its `checkFirst` order when it has one (a transfer by
 *    handle: the authorisation and the account before the payee, adr/0064); it waits in
 *    the account bulkhead, holding no connection, then runs `money_send` (adr/0027);
 * 3. the statement gets up to ACCOUNT_WRITE_ATTEMPTS attempts when it loses its lock
 *    waits; an unknown commit outcome is settled by looking for the landed claim, which
 *    reads the answer back;
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
import { countIdempotency, noteUnavailableCause } from '../../metrics.ts';
import { claimedRequests } from '../idempotency/claimedRequest.ts';
import { hashRequest, idempotencyRecords, newClaim, type Claim } from '../idempotency/idempotency.ts';
import { accountBulkhead } from './accountBulkhead.ts';
import { PermitWaitTimeout, type ReleasePermit } from '../bulkhead.ts';
import { claimingStatement, sendStatement, type MoneySend, type MoneySendFactory, type SendOrder } from './moneySend.ts';
import { answerOf, claimedStatements, isKeyAnswer, type Verdict } from './verdict.ts';

/** Every attempt lost its locks and the rules allow the send: busy. */
class AccountBusy extends Error {
  readonly attempts: number;
  constructor(attempts: number) {
    super(`the account stayed busy over ${attempts} attempts`);
    this.attempts = attempts;
  }
}

/** What a send's key is claimed with. */
interface KeyRequest {
  readonly userId: string;
  readonly key: string;
  readonly operationId: string;
  readonly requestHash: string;
}

/** A send's 201. */
type Sent<Body> = { status: 201; body: Body; headers?: Record<string, string> };

/** The accounts an order locks. */
const accountIdsOf = (order: SendOrder) => [order.fromAccountId, order.toAccountId].filter((id): id is string => id !== null);

/** The runner of one deps; `run(input, pathParams, factory)` answers a send's 201. */
export function moneySendRunner({ data, config }: DomainDeps) {
  const records = idempotencyRecords(data, config);
  const claimed = claimedRequests(records, config);
  // Each money statement is its own commit (adr/0027): a lost answer is settled by looking for the landed claim.
  const runStatement = claimedStatements(data, records, config.idempotencyStoreBudgetMs);
  // ACCOUNT_SENDS_AT_ONCE is the instance's: each worker takes its share, at least one (adr/0024).
  const accountPermits = accountBulkhead(Math.max(1, Math.floor(config.accountSendsAtOnce / Math.max(1, config.apiWorkers))));

  // A send's lock waits, all of them lost: after this long, busy (the bulkhead's queue counts against it).
  const contentionBudgetMs = config.accountWriteAttempts * config.accountLockWaitMs;

  const traceId = () => currentContext()?.traceId ?? null;

  async function moveMoney<Body>(label: string, order: SendOrder, claim: Claim): Promise<Body> {
    const accountIds = accountIdsOf(order);
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
    // A check locks no claim: anything but `ok` is the refusal it names.
    if (look.verdict !== 'ok') answerOf(look, claim.key);
  }

  async function moveMoneyWithPermit<Body>(label: string, order: SendOrder, claim: Claim, attempts: number): Promise<Body> {
    const mode = { lockWaitMs: config.accountLockWaitMs, dailyLimitMinor: config.dailySendLimitMinor, checkOnly: false };
    try {
      const done = await runStatement<Body>(label, claim, (sql) => sendStatement<Body>(sql, order, claim, traceId(), mode), attempts);
      return answerOf(done, claim.key);
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

  /** Claims the key alone, then answers as a send that holds it: the key's replay, 409 or 422, or `then`'s 201. */
  async function withClaim<Body>(request: KeyRequest, then: (claim: Claim) => Promise<Body>): Promise<Sent<Body>> {
    const outcome = await claimed.claimOrReplay(request);
    if (outcome.kind === 'replay') return claimed.replayAnswer<Body>(outcome);
    try {
      return { status: 201, body: await then(outcome.claim) };
    } catch (error) {
      throw await failureAnswer(error, outcome.claim);
    }
  }

  /**
   * Step 1 of the module's comment: the send as one statement, or undefined when it claims
   * its key first instead (its order needs a look, it would wait for a permit, or the key's
   * claim is stale and to be taken over). An order `prepare` refuses claims first too, so the
   * refusal is stored under the key like any other.
   */
  async function sendClaiming<Body>(request: KeyRequest, send: MoneySend): Promise<Sent<Body> | undefined> {
    if (send.checkFirst) return undefined;
    let order: SendOrder;
    try {
      order = await send.prepare();
    } catch {
      return undefined;
    }
    const permit = accountPermits.tryAcquire(accountIdsOf(order));
    if (!permit) return undefined;
    const release = await permit;
    const claim = newClaim(request.userId, request.key);
    const key = { claim, operationId: request.operationId, requestHash: request.requestHash, staleAfterMs: config.idempotencyStaleAfterMs };
    const mode = { lockWaitMs: config.accountLockWaitMs, dailyLimitMinor: config.dailySendLimitMinor };
    let done: Verdict<Body>;
    try {
      done = await runStatement(send.label, claim, (sql) => claimingStatement<Body>(sql, order, key, traceId(), mode), config.accountWriteAttempts);
    } catch (error) {
      if (isContentionExhausted(error)) return withClaim<Body>(request, (held) => busyAfterLook(order, held, error.attempts));
      // Nothing of a statement that ran to no commit is left: the claim alone says what to answer.
      if (!claimed.mayHaveMoved()) return withClaim<Body>(request, () => Promise.reject(error));
      throw await failureAnswer(error, claim);
    } finally {
      release();
    }
    if (isKeyAnswer(done)) {
      const answer = records.keyAnswer(done.verdict, done.detail?.status, done.body);
      return answer ? claimed.replayAnswer<Body>(answer) : undefined;
    }
    countIdempotency('first');
    try {
      return { status: 201, body: answerOf(done, claim.key) };
    } catch (error) {
      throw await failureAnswer(error, claim);
    }
  }

  return async function run<K extends OperationId, Body>(
    input: OperationInput<K> & { readonly headers: { readonly 'Idempotency-Key': string } },
    pathParams: Record<string, string>,
    factory: MoneySendFactory,
  ): Promise<Sent<Body>> {
    // The validator guarantees the header on every money send.
    const request: KeyRequest = {
      userId: input.caller.userId,
      key: input.headers['Idempotency-Key'],
      operationId: input.operationId,
      requestHash: hashRequest(input.operationId, pathParams, input.body),
    };
    const send = factory({ userId: request.userId });
    const sent = await sendClaiming<Body>(request, send);
    if (sent) return sent;
    return withClaim<Body>(request, async (claim) => {
      if (send.checkFirst) await refuseUnlessAllowed(send.checkFirst, claim);
      const order = await send.prepare();
      return moveMoney<Body>(send.label, order, claim);
    });
  };
}
