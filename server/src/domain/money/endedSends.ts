/**
 * What a money send answers when something ended it before its one statement committed
 * anything (runMoneySend.ts, adr/0076): a refusal of its look or its `prepare`, a queue that
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
import type { ServerConfig } from '../../config.ts';
import { ApiProblem, isApiProblem } from '../../errors/apiProblem.ts';
import { currentContext } from '../../request/requestContext.ts';
import { noteUnavailableCause } from '../../metrics.ts';
import type { ClaimedRequests } from '../idempotency/claimedRequest.ts';
import type { Claim, IdempotencyRecords } from '../idempotency/idempotency.ts';

/** Every attempt lost its locks, or the queue took a send's worth of them, and the rules allow the send: busy. */
export class AccountBusy extends Error {
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

/** The answers of ended sends over one protocol instance. */
export function endedSends(records: IdempotencyRecords, claimed: ClaimedRequests, config: Config) {
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
