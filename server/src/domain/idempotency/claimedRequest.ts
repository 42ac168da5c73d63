/**
 * The steps every request under an Idempotency-Key takes around its own work (adr/0010,
 * adr/0013), shared by the money sends (money/runMoneySend.ts) and by
 * opening an account (accountOpening.ts), so the protocol of idempotency.ts is run one way:
 *
 * - `claimOrReplay`: claim the key; a replay, a 409 or a 422 ends the request here. An
 *   owned claim tells the router what a 503 at the deadline may say of `applied` (`own`);
 * - `appliedNow`: what a 503 may say of `applied` now (appliedRule.ts);
 * - `releaseUnlessCommitted`: after a failure, release the claim unless a commit of the
 *   request started (its outcome may be unknown), and answer what `applied` may say;
 * - `outageAnswer`: an outage the rule says moved nothing is a 503 with `applied: false`;
 * - `claimLostAnswer`: a request whose claim is no longer its own moved nothing itself, but
 *   what its key moved is not its to say: a 503 without `applied` (adr/0029);
 * - `replayAnswer`: a stored answer as the request sends it, marked `Idempotent-Replayed: true`;
 * - `refusalAnswer`: a final refusal of the bank's rules stored as the key's answer (adr/0048);
 * - `refusedOrLost`: the two answers above, in their order, that a failed request gives first.
 */
import type { ServerConfig } from '../../config.ts';
import { problemBody, type ProblemBody } from '@tidewater/contract/errors';
import { ApiProblem, isApiProblem } from '../../errors/apiProblem.ts';
import { StoredProblem } from '../../errors/storedProblem.ts';
import { outageOf, unavailableCauseOf } from '../../data/outage.ts';
import { noteUnavailableCause } from '../../metrics.ts';
import { currentContext } from '../../request/requestContext.ts';
import { requestMayHaveMoved } from '../../request/commitOutcome.ts';
import { appliedExtras } from './appliedRule.ts';
import { isClaimTakenOver, storesRefusal, type Claim, type ClaimOutcome, type IdempotencyRecords } from './idempotency.ts';

/** How a replayed 2xx is marked (the IETF Idempotency-Key draft's practice, Stripe's header name). */
const replayedHeaders = { 'Idempotent-Replayed': 'true' } as const;

/** A commit of the current request may have moved money (adr/0052). */
function mayHaveMoved(): boolean {
  const context = currentContext();
  return context !== undefined && requestMayHaveMoved(context);
}

/** The steps over one protocol instance and the config's numbers. */
export function claimedRequests(records: IdempotencyRecords, config: Pick<ServerConfig, 'idempotencyStaleAfterMs' | 'retryAfterSeconds'>) {
  function appliedNow(claim: Claim): { applied?: false } {
    return appliedExtras({
      ownsClaim: true,
      commitStarted: mayHaveMoved(),
      ageMs: performance.now() - claim.startedAt,
      staleAfterMs: config.idempotencyStaleAfterMs,
    });
  }

  return {
    appliedNow,
    mayHaveMoved,

    /** Claims the key (idempotency.ts `claim`, with its `options`), or answers the stored replay; throws its 409 or 422. */
    async claimOrReplay(...args: Parameters<IdempotencyRecords['claim']>): Promise<ClaimOutcome> {
      const outcome = await records.claim(...args);
      if (outcome.kind === 'owned') this.own(outcome.claim);
      return outcome;
    },

    /**
     * Makes `claim` the request's: should the router answer 503 at the deadline before the
     * request settles, it says what the rule allows. A send that claims in its own statement
     * (adr/0070) owns its claim from before it is sent: nothing of it exists until that commit.
     */
    own(claim: Claim): void {
      const context = currentContext();
      if (context) context.outageExtras = () => appliedNow(claim);
    },

    /**
     * A stored answer as the request sends it: a 2xx with `Idempotent-Replayed: true`; a stored
     * refusal is thrown as its stored bytes, marked the same way by the problem handler.
     */
    replayAnswer<Body>(replay: Extract<ClaimOutcome, { kind: 'replay' }>): { status: 201; body: Body; headers: Record<string, string> } {
      if (replay.status >= 400) throw new StoredProblem(replay.body as ProblemBody, true);
      return { status: replay.status as 201, body: replay.body as Body, headers: { ...replayedHeaders } };
    },

    /**
     * `error` as the request answers it when it is a final refusal of the bank's rules
     * (idempotency.ts `storesRefusal`): stored as the key's answer, then sent as stored.
     * Undefined for anything else. Throws what storing it met (an outage, a claim taken over).
     */
    async refusalAnswer(error: unknown, claim: Claim): Promise<StoredProblem | undefined> {
      if (!isApiProblem(error) || !storesRefusal(error.status)) return undefined;
      const body = problemBody(error.code, currentContext()?.traceId ?? '', error.detail, error.extras);
      return new StoredProblem(await records.refuse(claim, error.status, body), false);
    },

    /** Releases the claim of a failed request unless a commit of it started; answers what `applied` may say. */
    async releaseUnlessCommitted(claim: Claim): Promise<{ applied?: false }> {
      if (!mayHaveMoved()) await records.release(claim);
      return appliedNow(claim);
    },

    /**
     * `error` as the request answers it when its claim is gone (`ClaimTakenOver`): taken over
     * by another request, or lost with a failover to an asynchronous standby (adr/0019), which
     * never had it. Its own transaction rolled back at the fence, so it moved nothing; the key
     * may have moved money under its new owner, so no `applied`. Never released: not ours.
     * Anything else: undefined.
     */
    claimLostAnswer(error: unknown): ApiProblem | undefined {
      if (!isClaimTakenOver(error)) return undefined;
      currentContext()?.log.error({ err: error }, 'the request no longer holds its idempotency claim: answering 503 without applied');
      noteUnavailableCause('other');
      return new ApiProblem(
        'SERVICE_UNAVAILABLE',
        'This request lost its hold on its Idempotency-Key before it could finish, and changed nothing itself. Send it again with the same Idempotency-Key, or look the key up, to learn what the key did.',
        { retryAfterSeconds: config.retryAfterSeconds },
      );
    },

    /**
     * What a failed request answers before anything about outages: its refusal stored as the
     * key's answer, or a lost claim's 503 (`{ answer }`); else `{ error }`, the failure, or what
     * storing its refusal met (the claim lost, or an outage that moved nothing), for the caller to answer.
     */
    async refusedOrLost(failure: unknown, claim: Claim): Promise<{ answer: unknown } | { error: unknown }> {
      let error = failure;
      try {
        const refusal = await this.refusalAnswer(error, claim);
        if (refusal) return { answer: refusal };
      } catch (storing) {
        error = storing;
      }
      const lost = this.claimLostAnswer(error);
      return lost ? { answer: lost } : { error };
    },

    /** `error` as the request answers it: an outage that moved nothing (per `applied`) is a 503 saying so in `detail`. */
    outageAnswer(error: unknown, applied: { applied?: false }, detail: string): unknown {
      if (isApiProblem(error) || !outageOf(error) || applied.applied !== false) return error;
      currentContext()?.log.error({ err: error, outage: outageOf(error) }, 'a request under an Idempotency-Key failed before any commit');
      noteUnavailableCause(unavailableCauseOf(error, currentContext()?.unavailableCause));
      return new ApiProblem('SERVICE_UNAVAILABLE', detail, { retryAfterSeconds: config.retryAfterSeconds, applied: false });
    },
  };
}

/** The steps' type. */
export type ClaimedRequests = ReturnType<typeof claimedRequests>;
