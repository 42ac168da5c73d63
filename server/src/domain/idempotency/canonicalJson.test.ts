import { describe, expect, it } from 'vitest';
import { canonicalJson, sha256Hex } from './canonicalJson.ts';

describe('canonicalJson', () => {
  it.each([
    ['sorts keys at every depth', { b: 1, a: { d: [1, { z: 0, y: 1 }], c: null } }, '{"a":{"c":null,"d":[1,{"y":1,"z":0}]},"b":1}'],
    ['leaves out undefined members', { a: undefined, b: 'x' }, '{"b":"x"}'],
    ['keeps strings exact', { s: 'Ünïcode "quoted"' }, '{"s":"Ünïcode \\"quoted\\""}'],
    ['writes a date as ISO', { at: new Date('2026-11-29T10:00:00.000Z') }, '{"at":"2026-11-29T10:00:00.000Z"}'],
    ['keeps a scalar', 42, '42'],
  ])('%s', (_name, given, want) => {
    expect(canonicalJson(given)).toBe(want);
  });

  it('spells equal content the same whatever the key order', () => {
    expect(canonicalJson({ x: 1, y: [2, 3] })).toBe(canonicalJson({ y: [2, 3], x: 1 }));
  });

  it('refuses a bigint (amounts travel as decimal strings)', () => {
    expect(() => canonicalJson({ amount: 10n })).toThrow(/bigint/);
  });

  it('hashes to 64 hex digits', () => {
    expect(sha256Hex('abc')).toBe('ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
  });
});
