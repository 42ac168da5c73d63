import { describe, expect, it } from 'vitest';
import { refuseCommonPassword, refuseWeakPin } from './weakSecrets.ts';

describe('weak secrets', () => {
  it.each([
    ['0000', false], ['1234', false], ['4321', false], ['123456', false], ['987654', false], ['777777', false], ['1122', false], ['6969', false],
    ['2468', true], ['1357', true], ['4821', true], ['8642', true], ['135790', true],
  ])('PIN %s is allowed: %s', (pin, allowed) => {
    if (allowed) expect(() => refuseWeakPin(pin)).not.toThrow();
    else expect(() => refuseWeakPin(pin)).toThrow(/too easy to guess/);
  });

  it.each([
    ['1234567890', false], ['Password123', false], ['aaaaaaaaaaaa', false], ['QWERTYUIOP', false],
    ['correct horse battery', true], ['my long passphrase', true],
  ])('password %s is allowed: %s', (password, allowed) => {
    if (allowed) expect(() => refuseCommonPassword(password)).not.toThrow();
    else expect(() => refuseCommonPassword(password)).toThrow(/most common/);
  });
});
