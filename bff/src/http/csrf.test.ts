import { describe, expect, it } from 'vitest';
import { csrfTokensMatch, newCsrfToken } from './csrf.ts';

describe('csrfTokensMatch', () => {
  const token = newCsrfToken();
  it.each([
    ['the same token', token, token, true],
    ['another token', token, newCsrfToken(), false],
    ['a prefix of it', token, token.slice(0, 20), false],
    ['it with more after', token, `${token}x`, false],
    ['an empty header', token, '', false],
    ['no header', token, undefined, false],
    ['a repeated header', token, [token, token], false],
    ['a session without a token', undefined, token, false],
    ['an empty session token', '', '', false],
  ])('%s → %s', (_name, expected, presented, match) => {
    expect(csrfTokensMatch(expected, presented)).toBe(match);
  });

  it('makes 256-bit base64url tokens, never the same twice', () => {
    expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(new Set(Array.from({ length: 100 }, newCsrfToken)).size).toBe(100);
  });
});
