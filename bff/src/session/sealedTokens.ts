/**
 * The API's tokens at rest (adr/0045): a session row holds them only sealed with
 * AES-256-GCM under the BFF's own key (BFF_TOKEN_KEY, 32 bytes), never in the clear, so a
 * copy of the session table is no key to the API. Each sealed value names its key by a
 * short id, so keys rotate: the current key seals, the previous ones
 * (BFF_TOKEN_KEY_PREVIOUS) still open what they sealed until those sessions end. A value
 * no key opens (a key retired too early, a row tampered with) opens as nothing: the
 * session is signed out, never an error.
 */
import { createCipheriv, createDecipheriv, createHash, randomBytes } from 'node:crypto';

/** The keys a BFF seals with (the first) and opens with (all). */
export interface TokenKeyRing {
  readonly current: Buffer;
  readonly previous: readonly Buffer[];
}

const VERSION = 'v1';

/** A key's id in a sealed value: 8 hex digits of its SHA-256, which says nothing of the key. */
function keyId(key: Buffer): string {
  return createHash('sha256').update(key).digest('hex').slice(0, 8);
}

/** A key from its base64 (or base64url) text; undefined unless it is exactly 32 bytes. */
export function parseTokenKey(text: string): Buffer | undefined {
  const key = Buffer.from(text.trim(), 'base64');
  return key.length === 32 ? key : undefined;
}

/** A random ring for a BFF whose sessions never leave its memory. */
export function processTokenKeys(): TokenKeyRing {
  return { current: randomBytes(32), previous: [] };
}

/** `plaintext` sealed under the ring's current key: `v1.<key id>.<iv>.<tag>.<ciphertext>`. */
export function seal(ring: TokenKeyRing, plaintext: string): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', ring.current, iv);
  const ciphertext = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
  return [VERSION, keyId(ring.current), iv.toString('base64url'), cipher.getAuthTag().toString('base64url'), ciphertext.toString('base64url')].join('.');
}

/** What `sealed` holds, or undefined when no key of the ring opens it. */
export function open(ring: TokenKeyRing, sealed: string): string | undefined {
  const [version, id, iv, tag, ciphertext] = sealed.split('.');
  if (version !== VERSION || !iv || !tag || ciphertext === undefined) return undefined;
  const key = [ring.current, ...ring.previous].find((candidate) => keyId(candidate) === id);
  if (!key) return undefined;
  try {
    const decipher = createDecipheriv('aes-256-gcm', key, Buffer.from(iv, 'base64url'));
    decipher.setAuthTag(Buffer.from(tag, 'base64url'));
    return Buffer.concat([decipher.update(Buffer.from(ciphertext, 'base64url')), decipher.final()]).toString('utf8');
  } catch {
    return undefined;
  }
}
