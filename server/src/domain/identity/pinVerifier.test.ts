import { describe, expect, it } from 'vitest';
import { parsePinPepper } from '../../pinPepper.ts';
import { pinVerifiers } from './pinVerifier.ts';
import { secretHashing } from './secrets.ts';

const passwords = secretHashing({ hashingConcurrency: 1, hashingQueue: 0 });
const old = parsePinPepper(`p1:${'a'.repeat(40)}`);
const rotated = parsePinPepper(`p2:${'b'.repeat(40)},p1:${'a'.repeat(40)}`);

describe('PIN verifiers (adr/0053)', () => {
  it('tells the right PIN from a wrong one, and holds neither the PIN nor the pepper', async () => {
    const pins = pinVerifiers(old, passwords);
    const stored = pins.make('482913');
    expect(stored).not.toContain('482913');
    expect(stored).not.toContain('a'.repeat(32));
    expect(await pins.check('482913', stored)).toEqual({ right: true });
    expect(await pins.check('482914', stored)).toEqual({ right: false });
  });

  it('is useless without its pepper: another pepper under the same key id finds the right PIN wrong', async () => {
    const stored = pinVerifiers(old, passwords).make('1357');
    const stranger = pinVerifiers(parsePinPepper(`p1:${'z'.repeat(40)}`), passwords);
    expect(await stranger.check('1357', stored)).toEqual({ right: false });
  });

  it('remakes a right PIN under the newest key after a rotation, and only a right one', async () => {
    const stored = pinVerifiers(old, passwords).make('2468');
    const pins = pinVerifiers(rotated, passwords);
    expect(await pins.check('2469', stored)).toEqual({ right: false });
    const verdict = await pins.check('2468', stored);
    expect(verdict.right).toBe(true);
    expect(verdict.remade).toMatch(/^hmac-sha256\$p2\$/);
    expect(await pins.check('2468', verdict.remade!)).toEqual({ right: true });
  });

  it('refuses, loudly, a verifier whose pepper was removed', async () => {
    const stored = pinVerifiers(rotated, passwords).make('2468');
    await expect(pinVerifiers(parsePinPepper(`p3:${'c'.repeat(40)}`), passwords).check('2468', stored)).rejects.toThrow(/key id "p2"/);
  });

  it('checks a scrypt verifier from before once, remaking it on the right PIN', async () => {
    const stored = await passwords.hash('7788');
    const pins = pinVerifiers(old, passwords);
    expect(await pins.check('7789', stored)).toEqual({ right: false });
    const verdict = await pins.check('7788', stored);
    expect(verdict).toEqual({ right: true, remade: expect.stringMatching(/^hmac-sha256\$p1\$/) });
  });

  it('finds a verifier of no known kind wrong', async () => {
    expect(await pinVerifiers(old, passwords).check('1234', 'bcrypt$whatever')).toEqual({ right: false });
  });

  it('gives the database the verifier a PIN makes under the stored salt, for a verifier under the current key only (adr/0047)', async () => {
    const pins = pinVerifiers(rotated, passwords);
    const stored = pins.make('5831');
    const right = pins.expected('5831', stored)!;
    expect(right.right).toBe(stored);
    expect(stored.startsWith(right.checked)).toBe(true);
    expect(right.checked).toMatch(/^hmac-sha256\$p2\$[A-Za-z0-9_-]{22}\$$/);
    expect(pins.expected('5832', stored)!.right).not.toBe(stored);
    expect(pins.expected('5831', right.checked)).toEqual(right);
    expect(pins.expected('5831', pinVerifiers(old, passwords).make('5831'))).toBeUndefined();
    expect(pins.expected('5831', await passwords.hash('5831'))).toBeUndefined();
  });
});
