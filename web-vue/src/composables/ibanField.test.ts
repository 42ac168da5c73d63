import { describe, expect, it } from 'vitest';
import { fieldMessages } from '../messages.ts';
import { ibanError, ibanShown } from './ibanField.ts';

describe('ibanError', () => {
  it.each([
    ['a valid IBAN, grouped', 'DE89 3704 0044 0532 0130 00', ''],
    ['a valid IBAN, lower case', 'gb29nwbk60161331926819', ''],
    ['one digit mistyped (mod 97 fails)', 'DE89 3704 0044 0532 0130 01', fieldMessages.ibanChecksum],
    ['two digits swapped', 'DE89 3704 0044 0532 0103 00', fieldMessages.ibanChecksum],
    ['too short for its country', 'DE89 3704 0044 0532 0130', fieldMessages.iban],
    ['no country', '1234567890', fieldMessages.iban],
    ['empty', '', fieldMessages.iban],
  ])('%s', (_name, typed, want) => {
    expect(ibanError(typed)).toBe(want);
  });
});

describe('ibanShown', () => {
  it.each([
    ['de89370400440532013000', 'DE89 3704 0044 0532 0130 00'],
    [' DE89 3704 0044 0532 0130 00 ', 'DE89 3704 0044 0532 0130 00'],
    ['nl91abna0417164300', 'NL91 ABNA 0417 1643 00'],
  ])('%s → %s', (typed, shown) => {
    expect(ibanShown(typed)).toBe(shown);
  });
});
