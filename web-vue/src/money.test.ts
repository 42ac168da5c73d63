import { describe, expect, it } from 'vitest';
import { formatMinor, minorToInput, parseAmount, type ParsedAmount } from './money.ts';

describe('parseAmount', () => {
  const cases: Array<[string, { given: string; want: ParsedAmount }]> = [
    ['euros and cents', { given: '12.34', want: { ok: true, minor: 1234 } }],
    ['whole euros', { given: '7', want: { ok: true, minor: 700 } }],
    ['one decimal', { given: '12.3', want: { ok: true, minor: 1230 } }],
    ['a decimal comma', { given: '12,5', want: { ok: true, minor: 1250 } }],
    ['a cent', { given: '0.01', want: { ok: true, minor: 1 } }],
    ['the float trap 0.1 + 0.2', { given: '0.30', want: { ok: true, minor: 30 } }],
    ['1.005 is not rounded', { given: '1.005', want: { ok: false, reason: 'format' } }],
    ['spaces and a euro sign', { given: ' € 1 000.00 ', want: { ok: true, minor: 100000 } }],
    ['a large amount exactly', { given: '999999999.99', want: { ok: true, minor: 99999999999 } }],
    ['the maximum', { given: '1000000000', want: { ok: true, minor: 100000000000 } }],
    ['above the maximum', { given: '1000000000.01', want: { ok: false, reason: 'tooLarge' } }],
    ['zero', { given: '0.00', want: { ok: false, reason: 'tooSmall' } }],
    ['empty', { given: '   ', want: { ok: false, reason: 'required' } }],
    ['negative', { given: '-5', want: { ok: false, reason: 'format' } }],
    ['letters', { given: '12a', want: { ok: false, reason: 'format' } }],
    ['exponent', { given: '1e3', want: { ok: false, reason: 'format' } }],
    ['two separators', { given: '1.000,00', want: { ok: false, reason: 'format' } }],
    ['a bare point', { given: '12.', want: { ok: false, reason: 'format' } }],
  ];
  it.each(cases)('%s', (_name, { given, want }) => {
    expect(parseAmount(given)).toEqual(want);
  });
});

describe('formatMinor', () => {
  const cases: Array<[string, { given: number | bigint; want: string }]> = [
    ['zero', { given: 0, want: '€0.00' }],
    ['a cent', { given: 1, want: '€0.01' }],
    ['euros and cents', { given: 1234, want: '€12.34' }],
    ['thousands', { given: 123456789, want: '€1,234,567.89' }],
    ['negative', { given: -1230, want: '\u2212€12.30' }],
    ['bigint', { given: 100000000000n, want: '€1,000,000,000.00' }],
  ];
  it.each(cases)('%s', (_name, { given, want }) => {
    expect(formatMinor(given)).toBe(want);
  });

  it('round-trips through the input format', () => {
    for (const minor of [1, 10, 99, 100, 1234, 100000000000]) {
      expect(parseAmount(minorToInput(minor))).toEqual({ ok: true, minor });
    }
  });
});
