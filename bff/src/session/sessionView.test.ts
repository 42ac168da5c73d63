import { describe, expect, it } from 'vitest';
import { idleTooLong } from './idleTimeout.ts';
import type { LoadedSession } from './sessionData.ts';
import { sessionState } from './sessionView.ts';

const user = {
  id: '9b2d7c1e-4f3a-4e8b-a1c2-5d6e7f8a9b0c',
  email: 'ada@example.com',
  displayName: 'Ada',
  handle: 'ada_l',
  primaryAccountId: null,
  createdAt: '2026-11-29T10:00:00Z',
};

describe('sessionState', () => {
  const config = { sessionIdleTimeoutMs: 900_000 };
  it.each([
    [
      'anonymous',
      { csrfToken: 'c' },
      {
        authenticated: false,
        user: null,
        csrfToken: 'c',
        idleTimeoutSeconds: 900,
        idleExpiresInSeconds: null,
      },
    ],
    [
      'signed in, used 100 s ago',
      {
        csrfToken: 'c',
        lastActiveAt: 1_000_000 - 100_000,
        auth: { accessToken: 'a', refreshToken: 'r', accessExpiresAt: 0, user },
      },
      { authenticated: true, user, csrfToken: 'c', idleTimeoutSeconds: 900, idleExpiresInSeconds: 800 },
    ],
    [
      'signed in, past its timeout',
      {
        csrfToken: 'c',
        lastActiveAt: 0,
        auth: { accessToken: 'a', refreshToken: 'r', accessExpiresAt: 0, user },
      },
      { authenticated: true, user, csrfToken: 'c', idleTimeoutSeconds: 900, idleExpiresInSeconds: 0 },
    ],
  ])('%s', (_name, session, expected) => {
    expect(sessionState(session as unknown as LoadedSession, config, undefined, 1_000_000)).toEqual(expected);
  });

  it('never shows a token', () => {
    const session = {
      csrfToken: 'c',
      lastActiveAt: 0,
      auth: { accessToken: 'ACCESS', refreshToken: 'REFRESH', accessExpiresAt: 0, user },
    };
    expect(JSON.stringify(sessionState(session as unknown as LoadedSession, config, undefined, 0))).not.toMatch(
      /ACCESS|REFRESH/,
    );
  });
});

describe('idleTooLong', () => {
  it.each([
    [0, 1_000, 999, false],
    [0, 1_000, 1_000, true],
    [undefined, 1_000, 5, false],
    [undefined, 1_000, 1_000, true],
  ])('last active %s, timeout %s, now %s → %s', (lastActiveAt, timeout, now, expected) => {
    expect(idleTooLong(lastActiveAt, timeout, now)).toBe(expected);
  });
});
