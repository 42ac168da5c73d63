import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { openedSession, sealedSession } from './sealedStore.ts';
import { open, parseTokenKey, seal } from './sealedTokens.ts';

const [oldKey, newKey, strangerKey] = [randomBytes(32), randomBytes(32), randomBytes(32)];
const auth = { accessToken: 'eyJhbGciOiJIUzI1NiJ9.e30.sig', refreshToken: 'opaque-refresh-token-0123456789', accessExpiresAt: 1, user: { id: 'u' } };

describe('sealed tokens', () => {
  it('seals with AES-256-GCM: the value holds neither token, and its key opens it', () => {
    const sealed = seal({ current: newKey, previous: [] }, JSON.stringify(auth));
    expect(sealed).toMatch(/^v1\.[0-9a-f]{8}\.[\w-]+\.[\w-]+\.[\w-]+$/);
    expect(sealed).not.toContain(auth.refreshToken);
    expect(sealed).not.toContain('eyJ');
    expect(open({ current: newKey, previous: [] }, sealed)).toBe(JSON.stringify(auth));
  });

  it.each([
    ['a rotation: the previous key still opens what it sealed', { current: newKey, previous: [oldKey] }, true],
    ['a key retired: nothing opens, the session is signed out', { current: newKey, previous: [] }, false],
    ['a stranger key', { current: strangerKey, previous: [] }, false],
  ])('%s', (_name, ring, opens) => {
    const stored = sealedSession({ current: oldKey, previous: [] }, { auth } as never);
    expect(JSON.stringify(stored)).not.toContain(auth.refreshToken);
    expect(openedSession(ring, stored).auth).toEqual(opens ? auth : undefined);
  });

  it('opens nothing that was tampered with', () => {
    const ring = { current: newKey, previous: [] };
    const sealed = seal(ring, 'secret');
    // The ciphertext's next-to-last character, changed: six bytes are eight base64url characters, every bit of them used.
    const at = sealed.length - 2;
    const flipped = sealed.slice(0, at) + (sealed[at] === 'A' ? 'B' : 'A') + sealed.slice(at + 1);
    expect(flipped).not.toBe(sealed);
    expect(open(ring, flipped)).toBeUndefined();
    expect(open(ring, 'not a seal')).toBeUndefined();
  });

  it('takes only 32-byte keys', () => {
    expect(parseTokenKey(newKey.toString('base64'))).toEqual(newKey);
    expect(parseTokenKey(randomBytes(16).toString('base64'))).toBeUndefined();
  });
});
