/**
 * PIN verifiers (adr/0053): HMAC-SHA-256 under a pepper the database does not hold, over a
 * per-user salt and the PIN, stored as `hmac-sha256$<keyId>$<salt>$<mac>` (base64url). A
 * check costs microseconds and waits in no queue: a 4-6 digit PIN is protected by the
 * attempt limit online (adr/0011) and by the pepper at rest, not by a slow hash, which
 * 10^6 guesses would outlast anyway.
 *
 * A verifier made before (scrypt, secrets.ts) is checked once with scrypt, in the password
 * hashing's queue, and the right PIN remakes it under the current pepper; so does a right
 * PIN whose verifier names an older pepper's key id.
 */
import { createHmac, createSecretKey, randomBytes, timingSafeEqual, type KeyObject } from 'node:crypto';
import type { SecretHashing } from './secrets.ts';

/** The peppers by key id; `current` makes new verifiers, every one checks its own. */
export interface PinPeppers {
  readonly current: { readonly keyId: string; readonly key: Buffer };
  readonly byKeyId: ReadonlyMap<string, Buffer>;
}

/** A check's verdict; `remade` is the verifier to store instead, when the right PIN's was old. */
export interface PinVerdict {
  right: boolean;
  remade?: string;
}

const scheme = 'hmac-sha256';
const saltBytes = 16;

function mac(key: KeyObject, salt: Buffer, pin: string): Buffer {
  return createHmac('sha256', key).update(salt).update(pin.normalize('NFKC')).digest();
}

/** The PIN verifiers of one process. */
export function pinVerifiers(peppers: PinPeppers, passwordHashing: SecretHashing) {
  // Key objects made once: a Buffer key is checked and wrapped again on every createHmac, a few µs of each step-up (adr/0047).
  const keys = new Map([...peppers.byKeyId].map(([keyId, key]) => [keyId, createSecretKey(key)]));
  const current = { keyId: peppers.current.keyId, key: createSecretKey(peppers.current.key) };

  function make(pin: string): string {
    const { keyId, key } = current;
    const salt = randomBytes(saltBytes);
    return [scheme, keyId, salt.toString('base64url'), mac(key, salt, pin).toString('base64url')].join('$');
  }

  function prefixOf(stored: string): string | undefined {
    const [kind, keyId, saltText] = stored.split('$', 3);
    if (kind !== scheme || keyId !== current.keyId || !saltText) return undefined;
    return `${kind}$${keyId}$${saltText}$`;
  }

  return {
    /** A new verifier for `pin` under the current pepper. */
    make,
    /** The part of a verifier under the current pepper before its MAC (scheme, key id and salt); undefined for any other. */
    prefixOf,
    /**
     * For a verifier under the current pepper: the part the database checks it starts with
     * and the whole verifier `pin` gives under its salt, which the database compares
     * (adr/0047); undefined for any other verifier (`check` it here).
     */
    expected(pin: string, stored: string): { checked: string; right: string } | undefined {
      const checked = prefixOf(stored);
      if (!checked) return undefined;
      const saltText = checked.split('$')[2]!;
      return { checked, right: checked + mac(current.key, Buffer.from(saltText, 'base64url'), pin).toString('base64url') };
    },
    /** Checks `pin` against a stored verifier, in constant time for a verifier of ours. */
    async check(pin: string, stored: string): Promise<PinVerdict> {
      const [kind, keyId = '', saltText = '', macText = ''] = stored.split('$');
      if (kind === 'scrypt') {
        const right = await passwordHashing.verify(pin, stored);
        return right ? { right, remade: make(pin) } : { right };
      }
      if (kind !== scheme) return { right: false };
      const key = keys.get(keyId);
      // A verifier under a pepper the operator removed cannot be checked: a configuration fault, not a wrong PIN.
      if (!key) throw new Error(`a PIN verifier names pepper key id "${keyId}", which PIN_PEPPER no longer holds (adr/0053)`);
      const expected = Buffer.from(macText, 'base64url');
      const actual = mac(key, Buffer.from(saltText, 'base64url'), pin);
      const right = actual.length === expected.length && timingSafeEqual(actual, expected);
      return right && keyId !== current.keyId ? { right, remade: make(pin) } : { right };
    },
  };
}

/** The verifiers' type. */
export type PinVerifiers = ReturnType<typeof pinVerifiers>;
