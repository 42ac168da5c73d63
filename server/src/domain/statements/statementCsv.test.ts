/** The CSV of a statement: RFC 4180's quoting and OWASP's defusing of formulas, one rule per case. */
import { describe, expect, it } from 'vitest';
import { csvText } from './statementCsv.ts';
import { fileNameOf } from './statementHandlers.ts';
import { formatMinor, printable } from './statementPdf.ts';

describe('csvText', () => {
  it.each([
    ['plain text as it is', { given: 'Salary', want: 'Salary' }],
    ['nothing as an empty field', { given: null, want: '' }],
    ['a comma in quotes', { given: 'Rent, flat', want: '"Rent, flat"' }],
    ['quotes doubled, in quotes', { given: 'Shop "A"', want: '"Shop ""A"""' }],
    ['a line break in quotes', { given: 'two\nlines', want: '"two\nlines"' }],
    ['= defused', { given: '=1+2', want: "'=1+2" }],
    ['+ defused', { given: '+31 6', want: "'+31 6" }],
    ['- defused', { given: '-5', want: "'-5" }],
    ['@ defused (a handle too)', { given: '@grace_h', want: "'@grace_h" }],
    ['a tab first defused', { given: '\t=1', want: "'\t=1" }],
    ['a formula with a comma defused, then quoted', { given: '=SUM(A1,A2)', want: `"'=SUM(A1,A2)"` }],
    ['= later left alone', { given: 'a=b', want: 'a=b' }],
  ])('writes %s', (_name, { given, want }) => {
    expect(csvText(given)).toBe(want);
  });
});

describe('the PDF words', () => {
  it.each([
    [0n, '0.00'],
    [5n, '0.05'],
    [125_000n, '1,250.00'],
    [-123_456_789n, '-1,234,567.89'],
  ])('formats %s minor units as %s', (minor, want) => {
    expect(formatMinor(minor)).toBe(want);
  });

  it('prints WinAnsi text as it is and anything else as ?', () => {
    expect(printable('Épargne für später – €5 🏖️ Ωmega')).toBe('Épargne für später – €5 ?? ?mega');
  });
});

describe('the file name', () => {
  it.each([
    ['Everyday', 'everyday'],
    ['Rainy day!', 'rainy-day'],
    ["Épargne d'été", 'epargne-d-ete'],
    ['🏖️', 'account'],
    ['=cmd|/C calc', 'cmd-c-calc'],
  ])('of %s is %s', (name, want) => {
    expect(fileNameOf(name)).toBe(want);
  });
});
