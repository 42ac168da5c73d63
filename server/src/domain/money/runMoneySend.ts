/**
 * Drives every money send one way (adr/0041, adr/0070, adr/0076, adr/0079):
 *
 * 1. the request's key is held in this process (keysOnTheirWay.ts) until it is answered: a
 *    second request with it here answers 409 (or 422 for another payload) at once;
 * 2. the order is settled from the request's own input (`order`), holding no claim;
 * 3. the send waits in the account bulkhead (adr/0024), holding no claim and no connection;
 * 4. ONE statement, `money_send_claiming`, claims the key (taking a stale claim over), checks
 *    every rule, moves the money and lands the claim with its answer, one commit (a transfer
 *    by handle counts its payee look-up and finds the payee's account there, adr/0064); or answers
 *    what the key's record says (a replay, a 409 or a 422) having written nothing. It gets up
 *    to ACCOUNT_WRITE_ATTEMPTS attempts when it loses its lock waits (less the waits its queue
 *    took); an unknown commit outcome is settled by looking for the landed claim;
 * 5. send the bytes the database stored with the money.
 *
 * Whatever ends a send before its statement committed anything is answered by the key's
 * claim alone (`endedSends`, below). Claiming, releasing and `applied` are claimedRequest.ts's,
 * which opening an account shares.
 */
import type { DomainDeps } from '../deps.ts';
import { isContentionExhausted } from '../../data/retry/index.ts';
import { statementsOf } from '../../data/statements.ts';
import type { OperationId } from '@tidewater/spec/operations';
import type { OperationInput } from '../../contract/operations.ts';
import { currentContext } from '../../request/requestContext.ts';
import { countIdempotency, noteUnavailableCause } from '../../metrics.ts';
import { claimedRequests, type ClaimedRequests } from '../idempotency/claimedRequest.ts';
import { hashRequest, idempotencyRecords, newClaim, type Claim, type IdempotencyRecords } from '../idempotency/idempotency.ts';
import type { KeysOnTheirWay } from '../idempotency/keysOnTheirWay.ts';
import { accountBulkhead } from './accountBulkhead.ts';
import { PermitWaitTimeout, type ReleasePermit } from '../bulkhead.ts';
import { answerOf, claimedStatements, claimingStatement, isKeyAnswer, lookupWindowOf, sendStatement, type MoneySend, type SendOrder, type Verdict } from './moneyStatement.ts';
import { payeeLookups, reportLookupWindow } from '../identity/payeeLookups.ts';
import type { ServerConfig } from '../../config.ts';
import { ApiProblem, isApiProblem } from '../../errors/apiProblem.ts';

/** The accounts an order locks. */
const accountIdsOf = (order: SendOrder) => [order.fromAccountId, order.toAccountId].filter((id): id is string => id !== null);

/** The runner of one deps and this process's keys on their way; `run(input, pathParams, send)` answers a send's 201. */
export function moneySendRunner({ data, config }: DomainDeps, onTheirWay: KeysOnTheirWay) {
  const records = idempotencyRecords(data, config);
  const claimed = claimedRequests(records, config);
  const { answerHolding, failureAnswer } = endedSends(records, claimed, config);
  // Each money statement is its own commit (adr/0027): a lost answer is settled by looking for the landed claim.
  const runStatement = claimedStatements(data, records, config.idempotencyStoreBudgetMs);
  // ACCOUNT_SENDS_AT_ONCE is the instance's: each worker takes its share, at least one (adr/0024).
  const accountPermits = accountBulkhead(Math.max(1, Math.floor(config.accountSendsAtOnce / Math.max(1, config.apiWorkers))));
  // A send's lock waits, all of them lost: after this long, busy (the bulkhead's queue counts against it).
  const contentionBudgetMs = config.accountWriteAttempts * config.accountLockWaitMs;
  const limits = { lockWaitMs: config.accountLockWaitMs, dailyLimitMinor: config.dailySendLimitMinor };
  const lookupLimits = { lookupLimit: config.payeeLookupLimit, lookupWindowMs: config.payeeLookupWindowMs };
  const lookups = payeeLookups(data, config);

  const traceId = () => currentContext()?.traceId ?? null;

  /** The rules, checked on fresh rows with no lock and no claim: throws the refusal they name, if any. */
  async function refuseUnlessAllowed(order: SendOrder, request: KeyRequest): Promise<void> {
    // A look writes nothing: the claim it is given is never written.
    const unwritten = newClaim(request.userId, request.key);
    const look = await data.read((db) => sendStatement(statementsOf(db), order, unwritten, traceId(), { ...limits, checkOnly: true }));
    if (look.verdict !== 'ok') answerOf(look, request.key);
  }

  /**
   * Every attempt lost its locks, or the queue took a send's worth of them (`attempts` 0): a
   * refusal the rules name, or busy (`endedSends`). A transfer by handle is looked at without
   * its payee, and its busy answer counts a look-up (a 429 over the limit), committed alone:
   * the statement that rolled back counted none, and a busy answer that cost nothing could
   * tell an existing handle from one that is not (adr/0064, adr/0079).
   */
  async function busyAfterLook(order: SendOrder, request: KeyRequest, attempts: number): Promise<never> {
    await refuseUnlessAllowed(order, request);
    if (order.toHandle !== null && order.toAccountId === null) await lookups.countOrRefuse(request.userId);
    throw new AccountBusy(attempts);
  }

  /** Step 4 of the module's comment, with the permit held and `attempts` lock waits left. */
  async function sendOnce<Body>(request: KeyRequest, label: string, order: SendOrder, attempts: number): Promise<Sent<Body>> {
    const claim = newClaim(request.userId, request.key);
    const key = { claim, operationId: request.operationId, requestHash: request.requestHash, staleAfterMs: config.idempotencyStaleAfterMs };
    // The request owns the claim its statement makes: should the deadline answer for it, a statement that ended without committing left nothing, so its 503 may say `applied: false`.
    claimed.own(claim);
    let done: Verdict<Body>;
    try {
      done = await runStatement(label, claim, (sql) => claimingStatement<Body>(sql, order, key, traceId(), { ...limits, ...lookupLimits }), attempts);
    } catch (error) {
      if (isContentionExhausted(error)) return answerHolding(request, () => busyAfterLook(order, request, error.attempts));
      // Nothing of a statement that ran to no commit is left, its claim included.
      if (!claimed.mayHaveMoved()) return answerHolding(request, () => Promise.reject(error));
      throw await failureAnswer(error, claim);
    }
    const window = lookupWindowOf(done);
    if (window) reportLookupWindow(config, window);
    if (isKeyAnswer(done)) {
      // A replay, or the key's 409 or 422 thrown (the statement settles a stale or released key itself).
      const answer = records.keyAnswer(done.verdict, done.detail?.status, done.body);
      if (!answer) throw new Error(`money_send_claiming answered a key ${done.verdict}`);
      return claimed.replayAnswer<Body>(answer);
    }
    countIdempotency(done.verdict === 'applied' && done.detail?.takenOver ? 'stale_taken_over' : 'first');
    try {
      return { status: 201, body: answerOf(done, claim.key) };
    } catch (error) {
      throw await failureAnswer(error, claim);
    }
  }

  /**
   * Step 3 of the module's comment: the wait for a permit, bounded by a send's worth of lock
   * waits, and by the deadline less `queueClaimMarginMs` (the timeout chain's): a send that holds no claim must claim its
   * key before its deadline answers for it, or that 503 could not say `applied: false`.
   */
  async function sendWhenPermitted<Body>(request: KeyRequest, label: string, order: SendOrder): Promise<Sent<Body>> {
    const waitStarted = performance.now();
    const leftMs = currentContext()?.deadline.remainingMs;
    const maxWaitMs = leftMs === undefined ? contentionBudgetMs : Math.max(0, Math.min(contentionBudgetMs, leftMs - config.queueClaimMarginMs));
    let release: ReleasePermit;
    try {
      release = await accountPermits.acquire(accountIdsOf(order), currentContext()?.signal, maxWaitMs);
    } catch (error) {
      if (error instanceof PermitWaitTimeout) return answerHolding(request, () => busyAfterLook(order, request, 0));
      return answerHolding(request, () => Promise.reject(error));
    }
    try {
      // The attempts left after the wait, at least one: a send that queued still tries the lock itself.
      const waitedAttempts = Math.floor((performance.now() - waitStarted) / config.accountLockWaitMs);
      return await sendOnce<Body>(request, label, order, Math.max(1, config.accountWriteAttempts - waitedAttempts));
    } finally {
      release();
    }
  }

  return async function run<K extends OperationId, Body>(
    input: OperationInput<K> & { readonly headers: { readonly 'Idempotency-Key': string } },
    pathParams: Record<string, string>,
    send: MoneySend,
  ): Promise<Sent<Body>> {
    // The validator guarantees the header on every money send.
    const request: KeyRequest = {
      userId: input.caller.userId,
      key: input.headers['Idempotency-Key'],
      operationId: input.operationId,
      requestHash: hashRequest(input.operationId, pathParams, input.body),
    };
    const holder = onTheirWay.holderOf(request.userId, request.key);
    if (holder !== undefined) {
      records.keyAnswer(holder === request.requestHash ? 'in_flight' : 'reused', null, null);
      throw new Error('a key on its way answered neither 409 nor 422');
    }
    return onTheirWay.hold(request, async () => {
      let order: SendOrder;
      try {
        order = send.order();
      } catch (refusal) {
        return answerHolding<Body>(request, () => Promise.reject(refusal));
      }
      return sendWhenPermitted<Body>(request, send.label, order);
    });
  };
}

/** Every attempt lost its locks, or the queue took a send's worth of them, and the rules allow the send: busy. */
class AccountBusy extends Error {
  readonly attempts: number;
  constructor(attempts: number) {
    super(`the account stayed busy over ${attempts} attempts`);
    this.attempts = attempts;
  }
}

/** What a send's key is claimed with. */
export interface KeyRequest {
  readonly userId: string;
  readonly key: string;
  readonly operationId: string;
  readonly requestHash: string;
}

/** A send's 201. */
export type Sent<Body> = { status: 201; body: Body; headers?: Record<string, string> };

type Config = Pick<ServerConfig, 'busyRetryAfterSeconds' | 'idempotencyReleaseBudgetMs'>;

/**
 * The answers of ended sends: what a money send answers when something ended it before its one statement committed
 * anything (adr/0076): a refusal of its look or its `prepare`, a queue that
 * took a send's worth of lock waits, the deadline, every attempt losing its locks, an outage.
 * Nothing of it is in the database then, not even its claim, so the key is claimed alone
 * (`answerHolding`) and the request answers as one that held its claim:
 *
 * - the key's own answer when it has one (a replay, 409, 422);
 * - a refusal worded here (refusals.ts) and stored as the key's answer (adr/0048), or the key
 *   released for one it does not store (a step-up to redo, a 429);
 * - busy (503, 1 s) after the rules allowed the send (`AccountBusy`), or 503 `applied: false`,
 *   with the key released (appliedRule.ts); a claim lost answers 503 without `applied` (adr/0029).
 *
 * `failureAnswer` also answers a send whose statement committed a refusal under its claim.
 */
function endedSends(records: IdempotencyRecords, claimed: ClaimedRequests, config: Config) {
  /** What a send that held `claim` and failed with `failure` answers (see the module's comment). */
  async function failureAnswer(failure: unknown, claim: Claim): Promise<unknown> {
    const settled = await claimed.refusedOrLost(failure, claim);
    if ('answer' in settled) return settled.answer;
    const { error } = settled;
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

  return {
    failureAnswer,

    /** A send that ended before any commit, answered by the key's claim alone: the key's replay, 409 or 422, else what `ended` throws. */
    async answerHolding<Body>(request: KeyRequest, ended: () => Promise<never>): Promise<Sent<Body>> {
      // Its deadline may have ended it: the claim has the release's own budget.
      const outcome = await claimed.claimOrReplay(request, { budgetMs: config.idempotencyReleaseBudgetMs });
      if (outcome.kind === 'replay') return claimed.replayAnswer<Body>(outcome);
      try {
        return await ended();
      } catch (error) {
        throw await failureAnswer(error, outcome.claim);
      }
    },
  };
}
