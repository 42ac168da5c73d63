/**
 * The idempotency protocol of money sends (adr/0010 "Claim, fence, store, release", as
 * adr/0016 changed it: claim, land, release). Keys are scoped per customer. One record per (customer, key):
 *
 * 1. **Claim** first (the database's `claim_key`): `Processing`, owned by this request's
 *    `ownerToken`, in a one-row write of its own, or in the send's own statement when it
 *    needs no wait (`money_send_claiming`, adr/0070). Another request with the key finds the record and answers from it:
 *    another payload → 422 IDEMPOTENCY_KEY_REUSED; `Executed` → the stored answer,
 *    replayed byte for byte; `Processing` → 409 IDEMPOTENCY_IN_FLIGHT, until it is stale.
 * 2. **Land**: the money's own transaction, after its save, marks the claim `landed_at`
 *    and stores the answer (`Executed`, status and body) in one statement, only while this
 *    request still owns the claim (else `ClaimTakenOver`: nothing moved, and the request
 *    answers 503 without `applied`, adr/0029). Both commit with the ledger rows
 *    (adr/0016), so a key moves money once, whoever holds it, and money never lands
 *    without its answer. The body sent is the one the database kept (jsonb orders keys
 *    its way), so the first answer and every replay are the same bytes. An empty 2xx is never stored.
 * 3. **Release** (delete) a claim whose request failed before any commit, under its own
 *    3 s budget, so the client can send the same key again. A claim whose release failed
 *    holds its key at 409 IN_FLIGHT until it is stale (120 s), then:
 *    - not landed: the next request with the same payload takes it over (a conditional
 *      update on the owner token and the age), and runs the send;
 *    - landed without an answer (only an empty one, or a record written before adr/0016): 409 IDEMPOTENCY_RESULT_UNKNOWN with
 *      `applied: true`, for good; look the key up with listTransactions.
 * 4. **Refuse**: a final refusal of the bank's rules (`storesRefusal`: a 404 or a 422 the
 *    send's own work answered) is stored as the key's answer (`Executed`, never landed),
 *    like a 2xx, so the key answers it for good (adr/0048): the IETF draft's "the first
 *    completed operation's result, success or error". What the bank did not decide (a bad
 *    request, an authorisation to redo, an outage, a busy account) stores nothing.
 */
import { randomUUID } from 'node:crypto';
import type { Config } from '../../config.ts';
import type { DataLayer, Tx } from '../../data/dataLayer.ts';
import { parseJsonColumn } from '../../data/statements.ts';
import { ApiProblem } from '../../errors/apiProblem.ts';
import { currentContext } from '../../request/requestContext.ts';
import { countIdempotency } from '../../metrics.ts';
import { runSideWrite, type SideWriteOptions } from '../sideWrites.ts';
import { canonicalJson, sha256Hex } from './canonicalJson.ts';

/**
 * Whether a refusal is a final answer of the bank's rules, which the key stores: a 404 (no
 * such account or payee) or a 422 (funds, limits, IBAN, ...). Not a 400 (the request was not
 * valid, so nothing was decided), a 401/403 (the caller or its step-up is to redo: the same
 * key then runs the send), a 409/429 or a 5xx.
 */
export function storesRefusal(status: number): boolean {
  return status === 404 || status === 422;
}

/** A claim this request holds. */
export interface Claim {
  readonly id: string;
  readonly userId: string;
  readonly key: string;
  /** Names this request: the fence, the release and its audit rows (`request_id`) carry it. */
  readonly ownerToken: string;
  /** `performance.now()` just before the claim was written: the request's age for `applied`. */
  readonly startedAt: number;
}

/** What claiming a key ends in: the claim, or the stored answer to replay. */
export type ClaimOutcome = { kind: 'owned'; claim: Claim } | { kind: 'replay'; status: number; body: unknown };

/** The numbers of the protocol (config.ts). */
export type IdempotencyConfig = Pick<Config, 'idempotencyReleaseBudgetMs' | 'idempotencyStaleAfterMs' | 'busyRetryAfterSeconds'>;

const brand = Symbol.for('tidewater.ClaimTakenOver');

/** The request's claim was taken over (it was stale): it must not move money; a 503 without `applied` (adr/0029). */
export class ClaimTakenOver extends Error {
  readonly [brand] = true;
  readonly key: string;
  constructor(key: string) {
    super(`the idempotency claim on key ${key} was taken over by another request`);
    this.key = key;
    this.name = 'ClaimTakenOver';
  }
}

/** True for a ClaimTakenOver, even across module copies. */
export function isClaimTakenOver(error: unknown): error is ClaimTakenOver {
  return typeof error === 'object' && error !== null && brand in error;
}

/** The request hash: operationId, path parameters and body, in canonical JSON. */
export function hashRequest(operationId: string, pathParams: Record<string, unknown>, body: unknown): string {
  return sha256Hex(canonicalJson({ operationId, path: pathParams, body: body ?? null }));
}

/**
 * What the database's `claim_key` answers of a key (adr/0070), alone or as the first step
 * of `money_send_claiming`: `claimed`, or what the key's record answers without this
 * request's claim (see the module's comment); `released`: the record went between the
 * insert and the read, so claim again.
 */
export type KeyVerdict = 'claimed' | 'in_flight' | 'replay' | 'reused' | 'result_unknown' | 'stale' | 'released';

/** The verdicts of a key this request did not claim. */
const keyVerdicts: ReadonlySet<string> = new Set<KeyVerdict>(['in_flight', 'replay', 'reused', 'result_unknown', 'stale', 'released']);

/** True when a statement's verdict is a key's answer rather than the send's. */
export function isKeyVerdict(verdict: string): verdict is Exclude<KeyVerdict, 'claimed'> {
  return keyVerdicts.has(verdict);
}

/** A new claim of `key` for this request, before it is written. */
export function newClaim(userId: string, key: string): Claim {
  return { id: randomUUID(), userId, key, ownerToken: randomUUID(), startedAt: performance.now() };
}

interface KeyRow {
  verdict: KeyVerdict;
  recordId: string | null;
  status: number | string | null;
  body: unknown;
}

/** The protocol over one data layer. */
export function idempotencyRecords(data: DataLayer, config: IdempotencyConfig) {
  const staleMs = Math.round(config.idempotencyStaleAfterMs);
  // A 409 IN_FLIGHT names its wait (Retry-After) like a busy account: the first request ends within its deadline.
  const inFlightWait = { retryAfterSeconds: config.busyRetryAfterSeconds };
  const log = () => currentContext()?.log;

  async function claimKey(claim: Claim, operationId: string, requestHash: string, options: SideWriteOptions): Promise<KeyRow> {
    const rows = await runSideWrite(
      () =>
        data.write((db) => db.$queryRaw<KeyRow[]>`
          SELECT verdict, record_id::text AS "recordId", status, body
          FROM claim_key(${claim.id}::uuid, ${claim.ownerToken}::uuid, ${claim.userId}::uuid, ${claim.key}::text, ${operationId}::text, ${requestHash}::text, ${staleMs}::int)`),
      options,
    );
    const row = rows[0];
    if (!row) throw new Error('claim_key answered no row');
    return row;
  }

  /**
   * What a key this request did not claim answers (its `verdict`, with the stored `status`
   * and `body` of a replay): the replay, or its 409 or 422 thrown; undefined for `stale`
   * and `released`, which the caller settles by claiming again.
   */
  function keyAnswer(verdict: Exclude<KeyVerdict, 'claimed'>, status: unknown, body: unknown): Extract<ClaimOutcome, { kind: 'replay' }> | undefined {
    switch (verdict) {
      case 'reused':
        countIdempotency('reused');
        throw new ApiProblem('IDEMPOTENCY_KEY_REUSED', 'This Idempotency-Key was already used with another request; make a new key for a new send.');
      case 'replay':
        countIdempotency('replayed');
        return { kind: 'replay', status: Number(status), body: parseJsonColumn(body) };
      case 'in_flight':
        countIdempotency('in_flight');
        throw new ApiProblem('IDEMPOTENCY_IN_FLIGHT', 'The first request with this Idempotency-Key is still being processed; wait, then send it again with the same key.', inFlightWait);
      case 'result_unknown':
        countIdempotency('result_unknown');
        throw new ApiProblem('IDEMPOTENCY_RESULT_UNKNOWN', 'This send landed but its answer was lost. Do not send it again with a new key; look it up by its key.', { applied: true });
      case 'stale':
      case 'released':
        return undefined;
    }
  }

  /** Takes over a stale claim that moved no money; undefined when another request won it. */
  async function takeOver(record: { id: string }, userId: string, key: string, requestHash: string, options: SideWriteOptions): Promise<Claim | undefined> {
    const claim: Claim = { id: record.id, userId, key, ownerToken: randomUUID(), startedAt: performance.now() };
    const taken = await runSideWrite(
      () =>
        data.write((db) => db.$executeRaw`
          UPDATE idempotency_records SET owner_token = ${claim.ownerToken}::uuid, claimed_at = now()
          WHERE id = ${record.id}::uuid AND status = 'Processing' AND landed_at IS NULL AND request_hash = ${requestHash}
            AND claimed_at <= now() - ${staleMs}::int * interval '1 millisecond'`),
      options,
    );
    if (taken !== 1) return undefined;
    log()?.warn({ key }, 'took over a stale idempotency claim whose release had failed');
    return claim;
  }

  return {
    /**
     * Claims `key` for this request, or answers from its record (see the module's
     * comment): throws 422 IDEMPOTENCY_KEY_REUSED, 409 IDEMPOTENCY_IN_FLIGHT or
     * 409 IDEMPOTENCY_RESULT_UNKNOWN (`applied: true`). `options.budgetMs`: a claim written to
     * answer a send that ended (runMoneySend.ts), after its deadline too, like the release.
     */
    async claim(input: { userId: string; key: string; operationId: string; requestHash: string }, options: SideWriteOptions = {}): Promise<ClaimOutcome> {
      const { userId, key, operationId, requestHash } = input;
      // Two rounds at most: a record released between our insert and our read is claimed again once.
      for (let round = 0; round < 2; round++) {
        const claim = newClaim(userId, key);
        const row = await claimKey(claim, operationId, requestHash, options);
        if (row.verdict === 'claimed') {
          countIdempotency('first');
          return { kind: 'owned', claim };
        }
        const answer = keyAnswer(row.verdict, row.status, row.body);
        if (answer) return answer;
        if (row.verdict === 'released' || !row.recordId) continue;
        const taken = await takeOver({ id: row.recordId }, userId, key, requestHash, options);
        if (taken) {
          countIdempotency('stale_taken_over');
          return { kind: 'owned', claim: taken };
        }
        break;
      }
      countIdempotency('in_flight');
      throw new ApiProblem('IDEMPOTENCY_IN_FLIGHT', 'Another request with this Idempotency-Key is being processed; wait, then send it again with the same key.', inFlightWait);
    },

    keyAnswer,

    /**
     * In the money's transaction, after its save: marks the claim landed and stores the
     * answer (`Executed`) in one statement, only while this request still owns the claim
     * (else `ClaimTakenOver`, and the transaction rolls back). The answer commits with the
     * money (adr/0016): there is no separate store, and no "landed but its answer lost".
     * Answers the body to send: the one the database kept (jsonb orders keys its way), so
     * the first answer and every replay are the same bytes. An empty body is never stored:
     * the claim is only fenced and stays `Processing`.
     */
    async land<Body>(tx: Tx, claim: Claim, status: number, body: Body): Promise<Body> {
      if (body === undefined || body === null) {
        log()?.error({ key: claim.key, status }, 'refusing to store an empty answer: the claim stays Processing');
        const fenced = await tx.$executeRaw`
          UPDATE idempotency_records SET landed_at = now()
          WHERE id = ${claim.id}::uuid AND owner_token = ${claim.ownerToken}::uuid AND status = 'Processing' AND landed_at IS NULL`;
        if (fenced !== 1) throw new ClaimTakenOver(claim.key);
        return body;
      }
      const rows = await tx.$queryRaw<{ responseBody: unknown }[]>`
        UPDATE idempotency_records
        SET landed_at = now(), status = 'Executed', response_status = ${status}::int, response_body = ${JSON.stringify(body)}::jsonb, completed_at = now()
        WHERE id = ${claim.id}::uuid AND owner_token = ${claim.ownerToken}::uuid AND status = 'Processing' AND landed_at IS NULL
        RETURNING response_body AS "responseBody"`;
      if (rows.length !== 1) throw new ClaimTakenOver(claim.key);
      return parseJsonColumn<Body>(rows[0]!.responseBody);
    },

    /**
     * The answer this request's claim landed with, if it landed: after a statement that was
     * its own commit lost its answer (adr/0027), the look that settles it and reads it back.
     * The primary's, like every look at a lost commit.
     */
    async landedAnswer<Body>(claim: Claim): Promise<Body | undefined> {
      const rows = await data.read((db) => db.$queryRaw<{ responseBody: unknown }[]>`
        SELECT response_body AS "responseBody" FROM idempotency_records
        WHERE id = ${claim.id}::uuid AND owner_token = ${claim.ownerToken}::uuid AND landed_at IS NOT NULL AND status = 'Executed'`);
      const body = rows[0]?.responseBody;
      return body === undefined || body === null ? undefined : parseJsonColumn<Body>(body);
    },

    /**
     * Stores a final refusal (`storesRefusal`) as the key's answer, only while this request
     * still owns the claim and nothing landed under it (else `ClaimTakenOver`). A write of its
     * own after the send's work: the refusal moved nothing, so there is nothing to commit
     * with. Answers the body the database kept, the bytes every replay sends.
     */
    async refuse<Body>(claim: Claim, status: number, body: Body): Promise<Body> {
      const rows = await runSideWrite(() =>
        data.write((db) => db.$queryRaw<{ responseBody: unknown }[]>`
          UPDATE idempotency_records
          SET status = 'Executed', response_status = ${status}::int, response_body = ${JSON.stringify(body)}::jsonb, completed_at = now()
          WHERE id = ${claim.id}::uuid AND owner_token = ${claim.ownerToken}::uuid AND status = 'Processing' AND landed_at IS NULL
          RETURNING response_body AS "responseBody"`),
      );
      if (rows.length !== 1) throw new ClaimTakenOver(claim.key);
      return parseJsonColumn<Body>(rows[0]!.responseBody);
    },

    /** Deletes a claim whose request failed before any commit (own budget); never throws. */
    async release(claim: Claim): Promise<void> {
      try {
        await runSideWrite(
          () =>
            data.write((db) => db.$executeRaw`
              DELETE FROM idempotency_records
              WHERE id = ${claim.id}::uuid AND owner_token = ${claim.ownerToken}::uuid AND landed_at IS NULL`),
          { budgetMs: config.idempotencyReleaseBudgetMs },
        );
      } catch (error) {
        log()?.warn({ err: error, key: claim.key }, 'could not release the idempotency claim; its key answers 409 until the claim is stale');
      }
    },
  };
}

/** The protocol's type. */
export type IdempotencyRecords = ReturnType<typeof idempotencyRecords>;
