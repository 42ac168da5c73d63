/**
 * Password hashing with Node's scrypt (memory-hard, no native add-on to build), a few at a
 * time in a queue that only sign-in and sign-up wait in (PINs are HMACs under a pepper,
 * pinVerifier.ts, adr/0053; it still checks a PIN verifier from before once), and opaque
 * random tokens stored only as SHA-256 hashes. (adr/0002-stack.md, adr/0012)
 */
import { createHash, randomBytes, scrypt, timingSafeEqual, type ScryptOptions } from 'node:crypto';
import { currentContext } from '../../request/requestContext.ts';
import { hashingBulkhead } from './hashingBulkhead.ts';

/** N=2^15, r=8, p=3: one of OWASP's equivalent scrypt minimums, 32 MiB per hash. */
const params: ScryptOptions = { N: 2 ** 15, r: 8, p: 3, maxmem: 64 * 1024 * 1024 };
const keyLength = 32;

/** Limits on hashing (config.ts: HASHING_CONCURRENCY, HASHING_QUEUE). */
export interface HashingLimits {
  hashingConcurrency: number;
  hashingQueue: number;
}

/**
 * Hashing and checking passwords, a few at a time (hashingBulkhead.ts). Each honours
 * the request's deadline: it does not start after the signal fired, and the request stops
 * waiting for it when the signal fires (the thread pool finishes the hash, and nobody
 * uses it).
 */
export function secretHashing(limits: HashingLimits) {
  const hashing = hashingBulkhead(limits.hashingConcurrency, limits.hashingQueue);

  async function derive(secret: string, salt: Buffer): Promise<Buffer> {
    const signal = currentContext()?.signal;
    const release = await hashing.acquire(signal);
    try {
      signal?.throwIfAborted();
      return await new Promise<Buffer>((resolve, reject) => {
        const onAbort = () => reject(signal!.reason);
        signal?.addEventListener('abort', onAbort, { once: true });
        scrypt(secret.normalize('NFKC'), salt, keyLength, params, (error, key) => {
          signal?.removeEventListener('abort', onAbort);
          if (error) reject(error);
          else resolve(key);
        });
      });
    } finally {
      release();
    }
  }

  return {
    /** Hashes a password as `scrypt$N$r$p$salt$hash` (base64url). */
    async hash(secret: string): Promise<string> {
      const salt = randomBytes(16);
      const key = await derive(secret, salt);
      return ['scrypt', params.N, params.r, params.p, salt.toString('base64url'), key.toString('base64url')].join('$');
    },
    /** Checks a secret against a stored hash in constant time. */
    async verify(secret: string, stored: string): Promise<boolean> {
      const [scheme, , , , saltText, keyText] = stored.split('$');
      if (scheme !== 'scrypt' || !saltText || !keyText) return false;
      const expected = Buffer.from(keyText, 'base64url');
      const actual = await derive(secret, Buffer.from(saltText, 'base64url'));
      return actual.length === expected.length && timingSafeEqual(actual, expected);
    },
    state: hashing.state,
  };
}

/** The hasher's type. */
export type SecretHashing = ReturnType<typeof secretHashing>;

/** A new opaque token (256 bits, base64url). */
export function newOpaqueToken(): string {
  return randomBytes(32).toString('base64url');
}

/** The stored form of an opaque token: its SHA-256. */
export function hashToken(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}
