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
 */
import { randomBytes } from 'node:crypto';
import type { Logger } from 'pino';
import { ConfigError, type ServerConfig } from './config.ts';
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
