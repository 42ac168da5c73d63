/**
 * Renewing a session's access token with its refresh token, once per refresh token.
 *
 * The API rotates refresh tokens and treats a spent one coming back as theft (it ends the
 * whole family). So concurrent requests of one session share one renewal, and a request
 * that still presents a token this process has just rotated (it loaded the session before
 * the new pair was saved) is handed the same result for `reuseMs` instead of a second
 * call. Only the API's refusal (401, or 400 for a token it cannot read) ends the session;
 * a 5xx, a timeout or a network failure leaves it as it was, and is not remembered, so the
 * next request tries again.
 *
 * Limit: the sharing is per process. Several BFF replicas need sticky sessions or they
 * may each present the same token (see README).
 */
import { createHash } from 'node:crypto';
import type { IssuedTokens } from '../session/sessionData.ts';
import { countRenewal } from '../metrics.ts';

/** How a renewal ended. */
export type RenewalOutcome =
  { kind: 'renewed'; tokens: IssuedTokens } | { kind: 'refused' } | { kind: 'unavailable'; detail: string };

/** Calls the API's refresh; never throws. */
export type RenewFunction = (refreshToken: string, traceId: string) => Promise<RenewalOutcome>;

/** The renewals of one process. */
export interface Renewals {
  /** The outcome for this refresh token: a shared flight, a recent result, or a new call. */
  renew(refreshToken: string, traceId: string): Promise<RenewalOutcome>;
  /** Renewals in flight or remembered (for tests and metrics). */
  readonly size: number;
}

interface Flight {
  outcome: Promise<RenewalOutcome>;
  settledAt?: number;
}

/** Creates the single-flight renewal table. */
export function createRenewals(
  renewFunction: RenewFunction,
  reuseMs: number,
  now: () => number = Date.now,
): Renewals {
  const flights = new Map<string, Flight>();
  const keyOf = (token: string) => createHash('sha256').update(token).digest('base64url');
  const forgetOld = () => {
    for (const [key, flight] of flights) {
      if (flight.settledAt !== undefined && now() - flight.settledAt > reuseMs) flights.delete(key);
    }
  };
  return {
    renew(refreshToken, traceId) {
      forgetOld();
      const key = keyOf(refreshToken);
      const known = flights.get(key);
      if (known) {
        countRenewal('shared');
        return known.outcome;
      }
      const flight: Flight = {
        outcome: renewFunction(refreshToken, traceId).then((outcome) => {
          countRenewal(outcome.kind);
          if (outcome.kind === 'unavailable') flights.delete(key);
          else flight.settledAt = now();
          return outcome;
        }),
      };
      flights.set(key, flight);
      return flight.outcome;
    },
    get size() {
      return flights.size;
    },
  };
}
