/**
 * The PIN pepper (adr/0053): the HMAC key of every PIN verifier, kept outside the
 * database, so a copy of the `users` table cannot test one PIN guess without it.
 *
 * PIN_PEPPER holds one or more `keyId:secret` entries, comma-separated (secrets of at least
 * 32 characters, `openssl rand -base64 48`; a bare secret is key `p1`). The first makes new verifiers; each checks the
 * verifiers that name its key id. To rotate: put a new entry first and keep the old ones
 * until no verifier names them (each right PIN remakes its verifier under the first).
 *
 * - Required with a server database (or a connection service), like JWT_SECRET: every API
 *   process must check what the others made.
 * - On the embedded default, one is made the first time and kept beside the data in
 *   `pin-pepper` (mode 0600), so `npm start` just works and PINs survive a restart.
 * - At start the API counts the verifiers by key id and refuses to start while any names a
 *   key it is not given (`refuseMissingPinKeys`): an entry removed too early, or a rollback
 *   after re-keying, would otherwise make every step-up of those customers fail, right PIN
 *   or wrong (issue 54, adr/0064). A database that cannot be read at start (an outage the
 *   API starts into) is counted once it answers, and a missing key then stops the process.
 */
import { randomBytes } from 'node:crypto';
import type { Logger } from 'pino';
import { ConfigError, type ServerConfig } from './config.ts';
import type { Tx } from './data/dataLayer.ts';
import type { PinPeppers } from './domain/identity/pinVerifier.ts';
import { keptBesideData } from './signingSecret.ts';

const MIN_PEPPER_LENGTH = 32;
const keyIdPattern = /^[A-Za-z0-9_-]{1,16}$/;
/** The key id of a secret given without one (base64 and hex secrets hold no colon). */
const bareKeyId = 'p1';

/** Reads PIN_PEPPER's form (see the module's comment); a ConfigError names what is wrong. */
export function parsePinPepper(text: string): PinPeppers {
  const entries = text.split(',').map((entry) => entry.trim());
  const byKeyId = new Map<string, Buffer>();
  for (const entry of entries) {
    const colon = entry.indexOf(':');
    const keyId = colon < 0 ? bareKeyId : entry.slice(0, colon);
    const secret = entry.slice(colon + 1);
    if (!keyIdPattern.test(keyId)) throw new ConfigError('PIN_PEPPER must be a secret, or `keyId:secret` entries, comma-separated (key ids: 1-16 of A-Z a-z 0-9 _ -)');
    if (secret.length < MIN_PEPPER_LENGTH) throw new ConfigError(`PIN_PEPPER's key ${keyId} must be at least ${MIN_PEPPER_LENGTH} characters of a random secret, got ${secret.length}`);
    if (byKeyId.has(keyId)) throw new ConfigError(`PIN_PEPPER names key id ${keyId} twice`);
    byKeyId.set(keyId, Buffer.from(secret, 'utf8'));
  }
  const [keyId] = byKeyId.keys();
  return { current: { keyId: keyId!, key: byKeyId.get(keyId!)! }, byKeyId };
}

/** The peppers for `config` (see the module's comment). */
export function pinPeppers(config: Pick<ServerConfig, 'pinPepper' | 'dataDir' | 'databaseUrl' | 'dbConnectionApiUrl'>, logger?: Logger): PinPeppers {
  if (config.pinPepper) return parsePinPepper(config.pinPepper);
  if (config.databaseUrl || config.dbConnectionApiUrl) {
    throw new ConfigError(
      'PIN_PEPPER is required with DATABASE_URL or a connection service: it is the key of every PIN verifier, kept out of the database, and every API process must hold the same one. Set it to at least 32 random characters (e.g. `openssl rand -base64 48`).',
    );
  }
  const kept = keptBesideData(config.dataDir, 'pin-pepper', () => `p1:${randomBytes(48).toString('base64url')}`, 'PIN pepper', logger);
  return parsePinPepper(kept);
}

/** How many PIN verifiers name each key id (HMAC verifiers only: scrypt ones need no pepper). */
async function pinVerifiersByKeyId(db: Tx): Promise<Map<string, number>> {
  const rows = await db.$queryRaw<{ keyId: string; verifiers: bigint }[]>`
    SELECT split_part(pin_hash, '$', 2) AS "keyId", count(*) AS verifiers
    FROM users WHERE starts_with(pin_hash, 'hmac-sha256$') GROUP BY 1`;
  return new Map(rows.map((row) => [row.keyId, Number(row.verifiers)]));
}

/**
 * Refuses to start (a ConfigError naming each missing key id and its verifiers) while a
 * stored verifier names a key id `peppers` lacks. One scan of `users` at start: about 0.1 s
 * per million customers.
 */
async function refuseMissingPinKeys(db: Tx, peppers: PinPeppers, logger?: Logger): Promise<void> {
  const counts = await pinVerifiersByKeyId(db);
  logger?.info({ pinVerifiersByKeyId: Object.fromEntries(counts) }, 'PIN verifiers by key id');
  const missing = [...counts].filter(([keyId]) => !peppers.byKeyId.has(keyId));
  if (missing.length === 0) return;
  const named = missing.map(([keyId, verifiers]) => `${keyId} (${verifiers} verifier${verifiers === 1 ? '' : 's'})`).join(', ');
  throw new ConfigError(
    `PIN_PEPPER lacks key id ${named}: those customers could never pass a step-up. Put the entry back (after the current one); remove it only once no verifier names it.`,
  );
}

/** How often the count is tried again while the database cannot be read. */
const RECOUNT_EVERY_MS = 5_000;

/**
 * `refuseMissingPinKeys` at start; when the database cannot be read yet, it warns, starts
 * anyway (an outage is not a configuration error) and counts again every few seconds until
 * it can, calling `stop` with the refusal if a key is missing then.
 */
export async function refuseMissingPinKeysWhenReadable(
  db: Tx,
  peppers: PinPeppers,
  logger: Logger,
  stop: (error: ConfigError) => void,
): Promise<void> {
  try {
    return await refuseMissingPinKeys(db, peppers, logger);
  } catch (error) {
    if (error instanceof ConfigError) throw error;
    logger.warn({ err: error }, 'could not count the PIN verifiers by key id: counting again once the database answers');
  }
  const retry = setInterval(() => {
    refuseMissingPinKeys(db, peppers, logger).then(
      () => clearInterval(retry),
      (error: unknown) => {
        if (!(error instanceof ConfigError)) return;
        clearInterval(retry);
        stop(error);
      },
    );
  }, RECOUNT_EVERY_MS);
  retry.unref();
}
