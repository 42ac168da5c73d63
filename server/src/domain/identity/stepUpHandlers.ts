/**
 * Step-up's handler (adr/0010, adr/0045): a PIN check (an HMAC under the pepper, no queue:
 * pinVerifier.ts, adr/0053) that issues a short-lived, single-use authorisation for the one
 * payment the request names (approvedPayment.ts: the operation, the account, the amount and
 * the payee), which the send must match.
 *
 * - The check is one statement (stepUpStatement.ts, adr/0047): the database function
 *   `pin_verdict` compares the verifier the PIN gives, counts or clears under the user's
 *   row lock and, for a right PIN, the same statement inserts the authorisation; it is its
 *   own commit, so a verdict is told only once its write committed (adr/0011) and an outage
 *   answers 503 and tells nothing.
 * - A wrong PIN answers 403 PIN_INCORRECT; the PIN_MAX_ATTEMPTS-th in a row locks the PIN
 *   (423 PIN_LOCKED, Retry-After): the first lock of a streak for PIN_LOCK_SECONDS, each
 *   further one twice as long, and the PIN_LOCKS_BEFORE_BLOCK-th blocks step-up until the
 *   bank lifts it (423 PIN_BLOCKED; adr/0047, adr/0064: `npm run pin:unblock`). A password
 *   sign-in lifts neither a lock nor a block, nor forgets a wrong PIN (adr/0064). Parallel guesses
 *   queue on the row lock, so at most PIN_MAX_ATTEMPTS wrong verdicts are told per lock.
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
import { normalizedPayment } from './approvedPayment.ts';
import { stepUpStatement, type PinAttempt, type PinVerdictRow } from './stepUpStatement.ts';

/** The handler of the PIN check. */
export function stepUpHandlers({ data, config, pins }: DomainDeps): Pick<Handlers, 'verifyPin'> {
  const statement = stepUpStatement(data, config);

  /** What to send for `pin` against the stored verifier: the database compares an HMAC of ours; an old verifier is checked here. */
  async function attemptAgainst(pin: string, stored: string): Promise<PinAttempt> {
    const expected = pins.expected(pin, stored);
    if (expected) return expected;
    const verdict = await pins.check(pin, stored);
    return { checked: stored, right: verdict.right ? stored : null, remade: verdict.remade };
  }

  function refusal(row: PinVerdictRow): ApiProblem {
    switch (row.verdict) {
      case 'wrong':
        return new ApiProblem('PIN_INCORRECT', `The PIN is not right; ${row.attemptsLeft} ${row.attemptsLeft === 1 ? 'try' : 'tries'} left before it locks.`);
      case 'locked': {
        // PSD2 RTS Art. 4(4): the payer is told before the block, and what lifts it.
        const warning = row.locks >= config.pinLocksBeforeBlock - 1 ? ' After the next lock, the PIN is blocked until Tidewater support unblocks it.' : '';
        return new ApiProblem('PIN_LOCKED', `Too many wrong PINs: try again in ${Math.ceil(row.waitSeconds / 60)} min.${warning}`, { retryAfterSeconds: row.waitSeconds });
      }
      case 'blocked':
        return new ApiProblem('PIN_BLOCKED', 'Too many wrong PINs: your PIN is blocked. Contact Tidewater support to unblock it; signing in again does not.');
      case 'unknown':
        return new ApiProblem('UNAUTHENTICATED', 'The signed-in user no longer exists.');
      default:
        // A verifier that changed under every one of our checks (a PIN changed again and again meanwhile).
        return new ApiProblem('SERVICE_UNAVAILABLE', 'The PIN changed while it was checked; try again.', { retryAfterSeconds: 1 });
    }
  }

  return {
    async verifyPin({ caller, body }) {
      const userId = caller.userId;
      // An IBAN that cannot be paid is refused before the PIN is compared (nothing counted).
      const payment = normalizedPayment(body.payment);
      const authorizationId = randomUUID();
      const remembered = statement.prefixOf(userId);
      let attempt: PinAttempt = remembered ? await attemptAgainst(body.pin, remembered) : { checked: null, right: null };
      let row = await statement.run(userId, attempt, payment, authorizationId);
      for (let again = 0; row.verdict === 'stale' && row.stored && again < 2; again++) {
        attempt = await attemptAgainst(body.pin, row.stored);
        row = await statement.run(userId, attempt, payment, authorizationId);
      }
      if (row.verdict === 'stale' || row.verdict === 'unknown') statement.remember(userId, undefined);
      else statement.remember(userId, pins.prefixOf(attempt.remade ?? attempt.checked ?? ''));
      if (row.verdict !== 'right' || !row.expiresAt) throw refusal(row);
      return { status: 201, body: { authorizationId, expiresAt: row.expiresAt, payment } };
    },
  };
}
