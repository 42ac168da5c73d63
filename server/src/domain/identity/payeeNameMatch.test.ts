import { describe, expect, it } from 'vitest';
import { matchPayeeName, type PayeeNameMatch } from './payeeNameMatch.ts';

describe('matchPayeeName', () => {
  it.each<[string, { expected: string; held: string; want: PayeeNameMatch }]>([
    ['the same name', { expected: 'Grace Hopper', held: 'Grace Hopper', want: 'match' }],
    ['case, spacing and punctuation folded', { expected: '  grace   HOPPER. ', held: 'Grace Hopper', want: 'match' }],
    ['accents folded', { expected: 'Zoe Lefevre', held: 'Zoë Lefèvre', want: 'match' }],
    ['a hyphen is a space', { expected: 'Anne Marie Smith', held: 'Anne-Marie Smith', want: 'match' }],
    ['one typo', { expected: 'Grace Hoper', held: 'Grace Hopper', want: 'close_match' }],
    ['two typos in a long name', { expected: 'Grece Hoppr', held: 'Grace Hopper', want: 'close_match' }],
    ['three typos', { expected: 'Grece Hoppr Z', held: 'Grace Hopper', want: 'no_match' }],
    ['one typo in a short name', { expected: 'Al Ba', held: 'Al Bo', want: 'close_match' }],
    ['two typos in a short name', { expected: 'Al Bu', held: 'Il Bo', want: 'no_match' }],
    ['words in another order', { expected: 'Hopper Grace', held: 'Grace Hopper', want: 'close_match' }],
    ['an initial and the last name', { expected: 'G Hopper', held: 'Grace Hopper', want: 'close_match' }],
    ['initials with dots for two first names', { expected: 'G. M. Hopper', held: 'Grace Murray Hopper', want: 'close_match' }],
    ['a first name left out', { expected: 'Grace Hopper', held: 'Grace Murray Hopper', want: 'close_match' }],
    ['the wrong initial', { expected: 'A Hopper', held: 'Grace Hopper', want: 'no_match' }],
    ['the last name alone', { expected: 'Hopper', held: 'Grace Hopper', want: 'no_match' }],
    ['the first name alone', { expected: 'Grace', held: 'Grace Hopper', want: 'no_match' }],
    ['another person', { expected: 'Ada Lovelace', held: 'Grace Hopper', want: 'no_match' }],
    ['punctuation only', { expected: '...', held: 'Grace Hopper', want: 'no_match' }],
  ])('%s', (_name, { expected, held, want }) => {
    expect(matchPayeeName(expected, held)).toBe(want);
  });
});
