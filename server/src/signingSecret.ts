/**
 * The secret that signs access tokens and cursors. There is no default a stranger could
 * read in the source (adr/0012):
 *
 * - JWT_SECRET when set; with a server database (or a connection service) it must be:
 *   every API process has to verify what the others sign;
 * - on the embedded default, one made at random the first time and kept beside the data
 *   in `jwt-secret` (mode 0600), so `npm start` just works and tokens survive a restart;
 * - on an in-memory database (`DATA_DIR=memory://`), a random one for the process.
 */
import { randomBytes } from 'node:crypto';
import { chmodSync, mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Logger } from 'pino';
import { ConfigError, type ServerConfig } from './config.ts';

const newSecret = () => randomBytes(48).toString('base64url');

/** The signing secret for `config` (see the module's comment). */
export function signingSecret(config: Pick<ServerConfig, 'jwtSecret' | 'dataDir' | 'databaseUrl' | 'dbConnectionApiUrl'>, logger?: Logger): string {
  if (config.jwtSecret) return config.jwtSecret;
  if (config.databaseUrl || config.dbConnectionApiUrl) {
    throw new ConfigError(
      'JWT_SECRET is required with DATABASE_URL or a connection service: every API process must verify the tokens the others sign, and a secret written nowhere but the source is no secret. Set it to at least 32 random characters (e.g. `openssl rand -base64 48`).',
    );
  }
  return keptBesideData(config.dataDir, 'jwt-secret', newSecret, 'token-signing secret', logger);
}

/**
 * A secret of the embedded default: made with `make` the first time and kept in `file`
 * beside the data (mode 0600), so a restart finds it; on an in-memory database
 * (`DATA_DIR=memory://`) a fresh one for the process.
 */
export function keptBesideData(dataDir: string, file: string, make: () => string, what: string, logger?: Logger): string {
  if (dataDir === 'memory://') return make();
  const path = join(dataDir, file);
  const kept = readKept(path);
  if (kept) return kept;
  mkdirSync(dataDir, { recursive: true });
  try {
    writeFileSync(path, `${make()}\n`, { mode: 0o600, flag: 'wx' });
    logger?.info({ path }, `made a random ${what} for the embedded database (mode 0600)`);
  } catch (error) {
    if ((error as { code?: string }).code !== 'EEXIST') throw error; // another process made it first: use theirs
  }
  return readKept(path)!;
}

/** The kept secret, readable by its owner only; undefined when there is none. */
function readKept(path: string): string | undefined {
  let text: string;
  try {
    text = readFileSync(path, 'utf8').trim();
  } catch (error) {
    if ((error as { code?: string }).code === 'ENOENT') return undefined;
    throw error;
  }
  if ((statSync(path).mode & 0o077) !== 0) chmodSync(path, 0o600);
  if (text.length < 32) throw new Error(`${path} holds no usable secret (fewer than 32 characters): delete it and start again`);
  return text;
}
