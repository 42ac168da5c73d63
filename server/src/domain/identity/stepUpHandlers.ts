/**
 * Step-up's handler (adr/0010, adr/0045): a PIN check (an HMAC under the pepper, no queue:
 * pinVerifier.ts, adr/0053) that issues a short-lived, single-use authorisation for the one
 * payment the request names (approvedPayment.ts: the operation, the account, the amount and
 * the payee), which the send must match.
 *
 * - A failure is counted only once its verdict is known, and a verdict is told only once
 *   its write committed (adr/0011): a wrong PIN is one committed write that counts it (the
 *   write that makes it the PIN_MAX_ATTEMPTS-th in a row also locks the PIN for
 *   PIN_LOCK_SECONDS), and only then answers 403 PIN_INCORRECT (or 423 when it was the
 *   last one allowed); a right PIN clears the count in the transaction that issues the
 *   authorisation, and only then answers 201. An outage anywhere answers 503 and tells
 *   nothing: a right PIN is never counted, and a guess met by an outage learns nothing.
 * - Parallel guesses cannot outrun the count: each verdict's write takes the row only
 *   while the PIN is not locked, so at most PIN_MAX_ATTEMPTS wrong verdicts are told per
 *   lock, and a right one that finds it locked answers 423 like any other. A locked PIN
 *   answers 423 PIN_LOCKED (with the wait) before anything is compared.
 * - The authorisation lives STEP_UP_TTL_SECONDS (database clock). A send reads it before
 *   its first attempt (401 AUTHORIZATION_INVALID: unknown, another customer's or spent;
 *   403 AUTHORIZATION_MISMATCH: it approves another payment; AUTHORIZATION_EXPIRED) and
 *   spends it inside the transaction that moves the money, so a send that moves nothing
 *   (busy, refused, an outage) spends nothing, and the authorisation still pays only the
 *   payment it names.
 */
import { randomUUID } from 'node:crypto';
import { ApiProblem } from '../../errors/apiProblem.ts';
import type { Handlers } from '../../contract/operations.ts';
import type { DomainDeps } from '../deps.ts';
import { boundPayment, normalizedPayment, type ApprovedPaymentWire } from './approvedPayment.ts';

/** The user's PIN as the check finds it. */
interface PinState {
  pinHash: string;
  locked: boolean;
}

/** A wrong PIN, counted. */
interface CountedFailure {
  attempts: number;
  lockedUntil: Date | null;
}

/** The handler of the PIN check. */
export function stepUpHandlers({ data, config, pins }: DomainDeps): Pick<Handlers, 'verifyPin'> {
  async function lockedProblem(userId: string): Promise<ApiProblem> {
    const rows = await data.read((db) => db.$queryRaw<{ waitSeconds: number | null }[]>`
      SELECT ceil(extract(epoch FROM pin_locked_until - now()))::int AS "waitSeconds" FROM users WHERE id = ${userId}::uuid`);
    if (!rows[0]) return new ApiProblem('UNAUTHENTICATED', 'The signed-in user no longer exists.');
    const waitSeconds = Math.max(1, rows[0].waitSeconds ?? config.pinLockSeconds);
    return new ApiProblem('PIN_LOCKED', `Too many wrong PINs: try again in ${Math.ceil(waitSeconds / 60)} min.`, { retryAfterSeconds: waitSeconds });
  }

  /** The committed count of one wrong PIN; undefined when the PIN locked meanwhile (a parallel guess). */
  async function countFailure(userId: string): Promise<CountedFailure | undefined> {
    const [counted] = await data.write((db) => db.$queryRaw<CountedFailure[]>`
      UPDATE users SET
        pin_failed_attempts = CASE WHEN pin_locked_until <= now() THEN 1 ELSE pin_failed_attempts + 1 END,
        pin_locked_until = CASE
          WHEN (CASE WHEN pin_locked_until <= now() THEN 1 ELSE pin_failed_attempts + 1 END) >= ${config.pinMaxAttempts}::int
          THEN now() + ${config.pinLockSeconds}::int * interval '1 second' END
      WHERE id = ${userId}::uuid AND (pin_locked_until IS NULL OR pin_locked_until <= now())
      RETURNING pin_failed_attempts AS attempts, pin_locked_until AS "lockedUntil"`);
    return counted;
  }

  /**
   * Clears the count (and stores the remade verifier of a right PIN whose verifier was old,
   * adr/0053) and issues an authorisation for `payment` in one transaction; undefined when the PIN locked meanwhile.
   */
  async function issueAuthorization(userId: string, remadePinHash: string | undefined, payment: ApprovedPaymentWire): Promise<{ authorizationId: string; expiresAt: Date } | undefined> {
    const authorizationId = randomUUID();
    const bound = boundPayment(payment);
    const issued = await data.runInTransaction(async (tx) => {
      const cleared = await tx.$executeRaw`
        UPDATE users SET pin_failed_attempts = 0, pin_locked_until = NULL, pin_hash = coalesce(${remadePinHash ?? null}::text, pin_hash)
        WHERE id = ${userId}::uuid AND (pin_locked_until IS NULL OR pin_locked_until <= now())`;
      if (cleared !== 1) return undefined;
      const [row] = await tx.$queryRaw<{ expiresAt: Date }[]>`
        INSERT INTO step_up_authorizations (id, user_id, expires_at, operation, from_account_id, amount_minor, payee_handle, payee_iban, payee_name)
        VALUES (${authorizationId}::uuid, ${userId}::uuid, now() + ${config.stepUpTtlSeconds}::int * interval '1 second',
                ${bound.operation}, ${bound.fromAccountId}::uuid, ${bound.amountMinor}::bigint, ${bound.toHandle}::text, ${bound.iban}::text, ${bound.beneficiaryName}::text)
        RETURNING expires_at AS "expiresAt"`;
      return row;
    }, { label: 'verifyPin' });
    return issued && { authorizationId, expiresAt: issued.expiresAt };
  }

  return {
    async verifyPin({ caller, body }) {
      const userId = caller.userId;
      // An IBAN that cannot be paid is refused before the PIN is compared (nothing counted).
      const payment = normalizedPayment(body.payment);
      const [pin] = await data.read((db) => db.$queryRaw<PinState[]>`
        SELECT pin_hash AS "pinHash", coalesce(pin_locked_until > now(), false) AS locked FROM users WHERE id = ${userId}::uuid`);
      if (!pin) throw new ApiProblem('UNAUTHENTICATED', 'The signed-in user no longer exists.');
      if (pin.locked) throw await lockedProblem(userId);
      const verdict = await pins.check(body.pin, pin.pinHash);
      if (!verdict.right) {
        // The verdict "wrong" is told only once its count committed: an outage here is a 503 that tells nothing.
        const counted = await countFailure(userId);
        if (!counted || counted.lockedUntil) throw await lockedProblem(userId);
        const left = config.pinMaxAttempts - counted.attempts;
        throw new ApiProblem('PIN_INCORRECT', `The PIN is not right; ${left} ${left === 1 ? 'try' : 'tries'} left before it locks.`);
      }
      const issued = await issueAuthorization(userId, verdict.remade, payment);
      if (!issued) throw await lockedProblem(userId);
      return { status: 201, body: { authorizationId: issued.authorizationId, expiresAt: issued.expiresAt.toISOString(), payment } };
    },
  };
}
