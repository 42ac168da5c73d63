/**
 * Failed sign-ins, limited (adr/0012). Counted in the database (`sign_in_failures`), so
 * every API process sees the same counts and a restart forgets none; only a refused
 * password counts, and only once its count committed (adr/0011's rule: a verdict is told
 * only when its counting write landed, so an outage gives no free guesses).
 *
 * Within SIGN_IN_WINDOW_MS (15 min), before the password is even compared:
 * - one email from one address: SIGN_IN_FAILURE_LIMIT (10), then 429: a stranger who
 *   guesses locks only their own address out of that email;
 * - one address, any email: SIGN_IN_ADDRESS_LIMIT (30), then 429: spraying from one place;
 * - one email, every address: past SIGN_IN_EMAIL_LIMIT (10), each further try from an
 *   address that has itself failed this email waits 2^n s after the email's last failure
 *   (at most SIGN_IN_DELAY_CAP_MS, 60 s). An address that has not failed it is never
 *   delayed by others' failures (adr/0045): the owner signing in from their own address is
 *   no one a stranger can lock out, and a sprayer pays one address per free guess;
 * - all emails: past SIGN_IN_GLOBAL_LIMIT (1,000) any address that already failed in the
 *   window is refused: spraying from many addresses gets one failure each.
 * A right password clears that email's failures from that address (others' stay: a
 * guesser elsewhere does not get a fresh count because the owner signed in).
 */
import type { Config } from '../../config.ts';
import type { DataLayer } from '../../data/dataLayer.ts';
import { ApiProblem } from '../../errors/apiProblem.ts';
import { sha256Hex } from '../idempotency/canonicalJson.ts';

/** The numbers (config.ts). */
export type SignInLimitConfig = Pick<
  Config,
  'signInFailureLimit' | 'signInAddressLimit' | 'signInEmailLimit' | 'signInDelayCapMs' | 'signInGlobalLimit' | 'signInWindowMs'
>;

interface Counts {
  pair: number;
  address: number;
  email: number;
  all: number;
  /** Seconds until the oldest failure of the pair / of the address leaves the window. */
  pairClearsIn: number | null;
  addressClearsIn: number | null;
  /** Seconds since the email's last failure. */
  sinceEmailFailed: number | null;
}

/** The limits over one data layer. */
export function signInLimits(data: DataLayer, config: SignInLimitConfig) {
  const windowMs = Math.round(config.signInWindowMs);
  const tooMany = (seconds: number | null, detail: string) =>
    new ApiProblem('TOO_MANY_REQUESTS', detail, { retryAfterSeconds: Math.max(1, Math.ceil(seconds ?? windowMs / 1000)) });

  return {
    /** Throws 429 (with its wait) when a sign-in of `email` from `address` may not even be tried now; else answers the pair's failures so far. */
    async refuseIfLimited(email: string, address: string): Promise<{ failuresHere: number }> {
      const emailHash = sha256Hex(email);
      const [counts] = await data.read((db) => db.$queryRaw<Counts[]>`
        WITH recent AS (
          SELECT email_hash, address, failed_at FROM sign_in_failures
          WHERE failed_at > now() - ${windowMs}::int * interval '1 millisecond'
        )
        SELECT
          count(*) FILTER (WHERE email_hash = ${emailHash} AND address = ${address})::int AS pair,
          count(*) FILTER (WHERE address = ${address})::int AS address,
          count(*) FILTER (WHERE email_hash = ${emailHash})::int AS email,
          count(*)::int AS "all",
          extract(epoch FROM min(failed_at) FILTER (WHERE email_hash = ${emailHash} AND address = ${address})
            + ${windowMs}::int * interval '1 millisecond' - now())::float8 AS "pairClearsIn",
          extract(epoch FROM min(failed_at) FILTER (WHERE address = ${address})
            + ${windowMs}::int * interval '1 millisecond' - now())::float8 AS "addressClearsIn",
          extract(epoch FROM now() - max(failed_at) FILTER (WHERE email_hash = ${emailHash}))::float8 AS "sinceEmailFailed"
        FROM recent`);
      const c = counts!;
      if (c.pair >= config.signInFailureLimit) throw tooMany(c.pairClearsIn, 'Too many failed sign-ins for this email from here. Try again later.');
      if (c.address >= config.signInAddressLimit) throw tooMany(c.addressClearsIn, 'Too many failed sign-ins from here. Try again later.');
      if (c.all >= config.signInGlobalLimit && c.address > 0) throw tooMany(60, 'Too many failed sign-ins. Try again later.');
      if (c.email >= config.signInEmailLimit && c.pair > 0) {
        const waitSeconds = Math.min(config.signInDelayCapMs / 1000, 2 ** (c.email - config.signInEmailLimit + 1));
        const left = waitSeconds - (c.sinceEmailFailed ?? waitSeconds);
        if (left > 0) throw tooMany(left, 'Too many failed sign-ins for this email. Try again in a moment.');
      }
      return { failuresHere: c.pair };
    },

    /** Counts a refused password; only once this committed may the refusal be told. */
    async countFailure(email: string, address: string): Promise<void> {
      await data.write((db) => db.$executeRaw`INSERT INTO sign_in_failures (email_hash, address) VALUES (${sha256Hex(email)}, ${address})`);
      // Old rows are of no use to any count: one sign-in in a hundred sweeps them.
      if (Math.random() < 0.01) {
        await data.write((db) => db.$executeRaw`DELETE FROM sign_in_failures WHERE failed_at < now() - ${windowMs}::int * interval '1 millisecond'`).catch(() => {});
      }
    },

    /** A right password: that email's failures from `address` no longer count. */
    async clearFailures(email: string, address: string): Promise<void> {
      await data.write((db) => db.$executeRaw`DELETE FROM sign_in_failures WHERE email_hash = ${sha256Hex(email)} AND address = ${address}`);
    },
  };
}
