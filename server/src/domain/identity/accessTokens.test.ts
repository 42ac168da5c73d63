/** Access tokens (accessTokens.ts): the verified-token cache answers exactly what jose would. */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { accessTokens } from './accessTokens.ts';

const secret = 'a-test-secret-of-more-than-thirty-two-characters';
const claims = { userId: '6f1c2a8e-1b7a-4c51-9a0e-2f5d8b7c9e01', familyId: 'fam-1' };

describe('access tokens', () => {
  afterEach(() => vi.useRealTimers());

  it.each([10_000, 0])('verifies a token it issued, again and again (cache of %i)', async (entries) => {
    const tokens = accessTokens(secret, 60, entries);
    const token = await tokens.issue(claims);
    expect(await tokens.verify(token)).toEqual(claims);
    expect(await tokens.verify(token)).toEqual(claims);
  });

  it('refuses a remembered token once it expired, as jose would', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    const tokens = accessTokens(secret, 60, 10_000);
    const token = await tokens.issue(claims);
    expect(await tokens.verify(token)).toEqual(claims);
    vi.setSystemTime(Date.now() + 61_000);
    expect(await tokens.verify(token)).toBeUndefined();
  });

  it('refuses a tampered token and one signed with another secret, whatever it remembers', async () => {
    const tokens = accessTokens(secret, 60, 10_000);
    const token = await tokens.issue(claims);
    expect(await tokens.verify(token)).toEqual(claims);
    const [head, body, signature] = token.split('.');
    expect(await tokens.verify(`${head}.${body}.${signature!.slice(0, -2)}AA`)).toBeUndefined();
    const other = await accessTokens(`${secret}-other`, 60, 10_000).issue(claims);
    expect(await tokens.verify(other)).toBeUndefined();
  });

  it('keeps at most its number of entries, and still verifies the ones it let go', async () => {
    const tokens = accessTokens(secret, 60, 2);
    const issued = await Promise.all([1, 2, 3].map((n) => tokens.issue({ ...claims, familyId: `fam-${n}` })));
    for (const token of issued) expect(await tokens.verify(token)).toBeDefined();
    for (const token of issued) expect((await tokens.verify(token))?.familyId).toMatch(/^fam-\d$/);
  });
});
