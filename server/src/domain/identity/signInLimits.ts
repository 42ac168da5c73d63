/**
 * Failed sign-ins, limited (adr/0012). Counted in the database (`sign_in_failures`), so
 * every API process sees the same counts and a restart forgets none; only a refused
 * password counts, and only once its count committed (adr/0011's rule: a verdict is told
 * only when its counting write landed, so an outage gives no free guesses).
 *
 * A **known device** (adr/0043: it presents a live device token of this email's customer,
 * knownDevices.ts) that has not failed itself is never delayed or refused by these
 * limits: others' failures, from any address, are not its concern. Its own failure makes
 * it an unknown device like any other, until the window has passed or it signs in.
 *
 * For every other request, within SIGN_IN_WINDOW_MS (15 min), before the password is
 * even compared:
 * - one email from one address: SIGN_IN_FAILURE_LIMIT (10), then 429: a stranger who
 *   guesses locks only their own address out of that email;
 * - one address, any email: SIGN_IN_ADDRESS_LIMIT (30), then 429: spraying from one place;
 * - one email, every address: past SIGN_IN_EMAIL_LIMIT (10), each further try waits 2^n s
 *   after the email's last failure (at most SIGN_IN_DELAY_CAP_MS, 60 s), unless it comes
 *   from a **known address** (one this customer's live devices last signed in from) that
 *   has not failed this email (adr/0045): the owner at home is no one a stranger can lock
 *   out, while spraying from many fresh addresses meets the delay at every one;
 * - all emails: past SIGN_IN_GLOBAL_LIMIT (1,000) failures in the window (a spray), every
 *   address is refused, a fresh one included (adr/0064: a spray from many fresh addresses
 *   met no refusal before), except a known device and a known address that has not failed:
 *   the customers the bank already knows still get in.
 * Addresses are counted by addressKey.ts (an IPv6 address by its /64).
 * A right password clears that email's failures from that address and the device's own
 * (others' stay: a guesser elsewhere does not get a fresh count because the owner signed in).
 *
 * The two quotas (the pair's and the address's) are told on every sign-in they apply to as
 * RateLimit fields (rateLimitFields.ts), in failed sign-ins: `"sign-in-email-address"` and
 * `"sign-in-address"`. A known device meets neither, so its sign-ins carry none; the
 * per-email wait and the bank-wide spray refusal are no quota of the caller's and show only
 * as a 429's Retry-After.
 */
import type { Config } from '../../config.ts';
import type { DataLayer } from '../../data/dataLayer.ts';
import { ApiProblem } from '../../errors/apiProblem.ts';
import { reportRateLimit, spendRateLimit } from '../../request/rateLimitFields.ts';
import { sha256Hex } from '../idempotency/canonicalJson.ts';

/** The numbers (config.ts). */
export type SignInLimitConfig = Pick<
  Config,
  | 'signInFailureLimit'
  | 'signInAddressLimit'
  | 'signInEmailLimit'
  | 'signInDelayCapMs'
  | 'signInGlobalLimit'
  | 'signInWindowMs'
  | 'knownDeviceTtlSeconds'
>;

interface Counts {
  pair: number;
  address: number;
  email: number;
  all: number;
  /** Failures that presented this device token. */
  device: number;
  /** Seconds until the oldest failure of the pair / of the address leaves the window. */
  pairClearsIn: number | null;
  addressClearsIn: number | null;
  /** Seconds since the email's last failure. */
  sinceEmailFailed: number | null;
  /** 1 when the token is a live device of this email's customer / the address is one of theirs. */
  knownDevice: number;
  knownAddress: number;
}

/** What a sign-in that may be tried learns of itself. */
export interface SignInStanding {
  /** This email's failures from this address, and those of the device token presented, in the window. */
  failuresHere: number;
  deviceFailures: number;
}

/** The limits over one data layer. */
export function signInLimits(data: DataLayer, config: SignInLimitConfig) {
  const windowMs = Math.round(config.signInWindowMs);
  const deviceTtlSeconds = Math.round(config.knownDeviceTtlSeconds);
  const tooMany = (seconds: number | null, detail: string) =>
    new ApiProblem('TOO_MANY_REQUESTS', detail, { retryAfterSeconds: Math.max(1, Math.ceil(seconds ?? windowMs / 1000)) });

  return {
    /**
     * Throws 429 (with its wait) when a sign-in of `email` from `address`, presenting the
     * device token of hash `deviceHash` (or none), may not even be tried now.
     */
    async refuseIfLimited(email: string, address: string, deviceHash: string | null): Promise<SignInStanding> {
      const emailHash = sha256Hex(email);
      const [c] = await data.read((db) => db.$queryRaw<Counts[]>`
        WITH recent AS (
          SELECT email_hash, address, device_hash, failed_at FROM sign_in_failures
          WHERE failed_at > now() - ${windowMs}::int * interval '1 millisecond'
        ), devices AS (
          SELECT d.token_hash, d.address FROM known_devices d JOIN users u ON u.id = d.user_id
          WHERE u.email = ${email}::text AND d.last_used_at > now() - ${deviceTtlSeconds}::int * interval '1 second'
        )
        SELECT
          count(*) FILTER (WHERE email_hash = ${emailHash}::text AND address = ${address}::text)::int AS pair,
          count(*) FILTER (WHERE address = ${address}::text)::int AS address,
          count(*) FILTER (WHERE email_hash = ${emailHash}::text)::int AS email,
          count(*)::int AS "all",
          count(*) FILTER (WHERE device_hash = ${deviceHash}::text)::int AS device,
          extract(epoch FROM min(failed_at) FILTER (WHERE email_hash = ${emailHash}::text AND address = ${address}::text)
            + ${windowMs}::int * interval '1 millisecond' - now())::float8 AS "pairClearsIn",
          extract(epoch FROM min(failed_at) FILTER (WHERE address = ${address}::text)
            + ${windowMs}::int * interval '1 millisecond' - now())::float8 AS "addressClearsIn",
          extract(epoch FROM now() - max(failed_at) FILTER (WHERE email_hash = ${emailHash}::text))::float8 AS "sinceEmailFailed",
          (EXISTS (SELECT 1 FROM devices WHERE token_hash = ${deviceHash}::text))::int AS "knownDevice",
          (EXISTS (SELECT 1 FROM devices WHERE address = ${address}::text))::int AS "knownAddress"
        FROM recent`);
      // Numbers as the adapter gives them (text or number): read through Number.
      const counts = c!;
      const seconds = (value: number | null) => (value === null ? null : Number(value));
      const pair = Number(counts.pair);
      const standing = { failuresHere: pair, deviceFailures: Number(counts.device) };
      if (Number(counts.knownDevice) === 1 && standing.deviceFailures === 0) return standing;
      const windowSeconds = windowMs / 1000;
      const quota = (policy: string, limit: number, used: number, clearsIn: number | null) =>
        reportRateLimit({ policy, quota: limit, windowSeconds, remaining: Math.max(0, limit - used), resetSeconds: seconds(clearsIn) ?? 0 });
      quota('sign-in-email-address', config.signInFailureLimit, pair, counts.pairClearsIn);
      quota('sign-in-address', config.signInAddressLimit, Number(counts.address), counts.addressClearsIn);
      if (pair >= config.signInFailureLimit) throw tooMany(seconds(counts.pairClearsIn), 'Too many failed sign-ins for this email from here. Try again later.');
      if (Number(counts.address) >= config.signInAddressLimit) throw tooMany(seconds(counts.addressClearsIn), 'Too many failed sign-ins from here. Try again later.');
      const spared = Number(counts.knownAddress) === 1 && pair === 0;
      if (Number(counts.all) >= config.signInGlobalLimit && (Number(counts.address) > 0 || !spared)) throw tooMany(60, 'Too many failed sign-ins. Try again later.');
      const emailFailures = Number(counts.email);
      if (emailFailures >= config.signInEmailLimit && !spared) {
        const waitSeconds = Math.min(config.signInDelayCapMs / 1000, 2 ** (emailFailures - config.signInEmailLimit + 1));
        const left = waitSeconds - (seconds(counts.sinceEmailFailed) ?? waitSeconds);
        if (left > 0) throw tooMany(left, 'Too many failed sign-ins for this email. Try again in a moment.');
      }
      return standing;
    },

    /** Counts a refused password (naming the device token it presented); only once this committed may the refusal be told. */
    async countFailure(email: string, address: string, deviceHash: string | null): Promise<void> {
      await data.write((db) => db.$executeRaw`
        INSERT INTO sign_in_failures (email_hash, address, device_hash) VALUES (${sha256Hex(email)}::text, ${address}::text, ${deviceHash}::text)`);
      spendRateLimit('sign-in-email-address', 1);
      spendRateLimit('sign-in-address', 1);
      // Old rows are of no use to any count: one sign-in in a hundred sweeps them.
      if (Math.random() < 0.01) {
        await data
          .write((db) => db.$executeRaw`DELETE FROM sign_in_failures WHERE failed_at < now() - ${windowMs}::int * interval '1 millisecond'`)
          .catch(() => {});
      }
    },

    /** A right password: that email's failures from `address`, and those of the device token presented, no longer count. */
    async clearFailures(email: string, address: string, deviceHash: string | null): Promise<void> {
      const cleared = await data.write((db) => db.$queryRaw<{ here: boolean }[]>`
        DELETE FROM sign_in_failures
        WHERE (email_hash = ${sha256Hex(email)}::text AND address = ${address}::text) OR device_hash = ${deviceHash}::text
        RETURNING address = ${address}::text AS here`);
      const clearedHere = cleared.filter((row) => row.here).length;
      spendRateLimit('sign-in-email-address', -clearedHere);
      spendRateLimit('sign-in-address', -clearedHere);
    },
  };
}
