/**
 * Sign-ups, limited (adr/0045, adr/0064), in the database (`sign_up_attempts`): every API
 * process sees the same counts. Within REGISTER_WINDOW_MS (60 s), before anything is looked
 * up or hashed:
 * - one address (an IPv6 one by its /64: addressKey.ts): REGISTER_ADDRESS_LIMIT (20) tries,
 *   whatever their answer (a taken email too, so "taken" cannot be probed faster), then 429;
 * - all addresses: REGISTER_GLOBAL_LIMIT (60) sign-ups that went on to hash (`hashed`),
 *   then 429. A sign-up refused anyway (a weak PIN, a taken email) costs the bank no hash
 *   and spends no one else's budget: an attacker who would close sign-up for everyone must
 *   make real sign-ups from three /64s a minute.
 * So a flood of sign-ups meets 429s without hashing, and the hashes sign-in and step-up
 * wait for stay theirs. Each sign-up's answer carries both as RateLimit fields
 * (rateLimitFields.ts): `"sign-up-address"` and `"sign-up"`.
 */
import type { Config } from '../../config.ts';
import type { DataLayer } from '../../data/dataLayer.ts';
import { ApiProblem } from '../../errors/apiProblem.ts';
import { reportRateLimit, spendRateLimit } from '../../request/rateLimitFields.ts';

/** The numbers (config.ts). */
type SignUpLimitConfig = Pick<Config, 'registerAddressLimit' | 'registerGlobalLimit' | 'registerWindowMs'>;

interface Counts {
  address: number;
  all: number;
  /** Seconds until the oldest attempt of the address / of all leaves the window. */
  addressClearsIn: number | null;
  allClearsIn: number | null;
}

/** The limits over one data layer. */
export function signUpLimits(data: DataLayer, config: SignUpLimitConfig) {
  const windowMs = Math.round(config.registerWindowMs);
  const tooMany = (seconds: number | null, detail: string) =>
    new ApiProblem('TOO_MANY_REQUESTS', detail, { retryAfterSeconds: Math.max(1, Math.ceil(seconds ?? windowMs / 1000)) });

  return {
    /**
     * Throws 429 (with its wait) when a sign-up from `address` (an addressKey) may not be
     * tried now; else counts this one for its address (committed before it goes on) and
     * answers its row's id, for `hashing`.
     */
    async countOrRefuse(address: string): Promise<string> {
      const [counts] = await data.read((db) => db.$queryRaw<Counts[]>`
        WITH recent AS (
          SELECT address, attempted_at, hashed FROM sign_up_attempts WHERE attempted_at > now() - ${windowMs}::int * interval '1 millisecond'
        )
        SELECT
          count(*) FILTER (WHERE address = ${address}::text)::int AS address,
          count(*) FILTER (WHERE hashed)::int AS "all",
          extract(epoch FROM min(attempted_at) FILTER (WHERE address = ${address}::text) + ${windowMs}::int * interval '1 millisecond' - now())::float8 AS "addressClearsIn",
          extract(epoch FROM min(attempted_at) FILTER (WHERE hashed) + ${windowMs}::int * interval '1 millisecond' - now())::float8 AS "allClearsIn"
        FROM recent`);
      const c = counts!;
      const windowSeconds = windowMs / 1000;
      // This try counts for its address now, and in all only once it hashes.
      reportRateLimit({
        policy: 'sign-up-address', quota: config.registerAddressLimit, windowSeconds,
        remaining: Math.max(0, config.registerAddressLimit - Number(c.address) - 1), resetSeconds: Number(c.addressClearsIn ?? windowSeconds),
      });
      reportRateLimit({
        policy: 'sign-up', quota: config.registerGlobalLimit, windowSeconds,
        remaining: Math.max(0, config.registerGlobalLimit - Number(c.all)), resetSeconds: Number(c.allClearsIn ?? 0),
      });
      if (c.address >= config.registerAddressLimit) throw tooMany(c.addressClearsIn, 'Too many sign-ups from here. Try again later.');
      if (c.all >= config.registerGlobalLimit) throw tooMany(c.allClearsIn, 'Too many sign-ups just now. Try again in a moment.');
      const [row] = await data.write((db) => db.$queryRaw<{ id: string }[]>`
        INSERT INTO sign_up_attempts (address) VALUES (${address}::text) RETURNING id::text AS id`);
      // Old rows are of no use to any count: one sign-up in a hundred sweeps them.
      if (Math.random() < 0.01) {
        await data.write((db) => db.$executeRaw`DELETE FROM sign_up_attempts WHERE attempted_at < now() - ${windowMs}::int * interval '1 millisecond'`).catch(() => {});
      }
      return row!.id;
    },

    /** The attempt `id` passed every check and goes on to hash: from now on it counts in all. */
    async hashing(id: string): Promise<void> {
      await data.write((db) => db.$executeRaw`UPDATE sign_up_attempts SET hashed = true WHERE id = ${id}::bigint`);
      spendRateLimit('sign-up', 1);
    },
  };
}
