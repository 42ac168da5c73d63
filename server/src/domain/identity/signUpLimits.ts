/**
 * Sign-ups, limited (adr/0045). Each registration tried counts, whatever its answer (a
 * taken email too, so the answer "taken" cannot be probed faster than sign-in's
 * refusals), in the database (`sign_up_attempts`): every API process sees the same counts.
 * Within REGISTER_WINDOW_MS (60 s), before anything is looked up or hashed:
 * - one address: REGISTER_ADDRESS_LIMIT (20), then 429;
 * - all addresses: REGISTER_GLOBAL_LIMIT (60), then 429.
 * So a flood of sign-ups meets 429s without hashing, and the hashes sign-in and step-up
 * wait for stay theirs.
 */
import type { Config } from '../../config.ts';
import type { DataLayer } from '../../data/dataLayer.ts';
import { sqlOf } from '../../data/statements.ts';
import { ApiProblem } from '../../errors/apiProblem.ts';

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
    /** Throws 429 (with its wait) when a sign-up from `address` may not be tried now; else counts this one (committed before it goes on). */
    async countOrRefuse(address: string): Promise<void> {
      const [counts] = await data.read((db) => sqlOf(db).query<Counts>`
        WITH recent AS (
          SELECT address, attempted_at FROM sign_up_attempts WHERE attempted_at > now() - ${windowMs}::int * interval '1 millisecond'
        )
        SELECT
          count(*) FILTER (WHERE address = ${address}::text)::int AS address,
          count(*)::int AS "all",
          extract(epoch FROM min(attempted_at) FILTER (WHERE address = ${address}::text) + ${windowMs}::int * interval '1 millisecond' - now())::float8 AS "addressClearsIn",
          extract(epoch FROM min(attempted_at) + ${windowMs}::int * interval '1 millisecond' - now())::float8 AS "allClearsIn"
        FROM recent`);
      const c = counts!;
      if (c.address >= config.registerAddressLimit) throw tooMany(c.addressClearsIn, 'Too many sign-ups from here. Try again later.');
      if (c.all >= config.registerGlobalLimit) throw tooMany(c.allClearsIn, 'Too many sign-ups just now. Try again in a moment.');
      await data.write((db) => sqlOf(db).execute`INSERT INTO sign_up_attempts (address) VALUES (${address}::text)`);
      // Old rows are of no use to any count: one sign-up in a hundred sweeps them.
      if (Math.random() < 0.01) {
        await data.write((db) => sqlOf(db).execute`DELETE FROM sign_up_attempts WHERE attempted_at < now() - ${windowMs}::int * interval '1 millisecond'`).catch(() => {});
      }
    },
  };
}
