import { describe, expect, it } from 'vitest';
import { chainDefaults, chainLinks, chainNamesOf, resolveChain, timeoutChain, timeoutChainViolations } from './timeoutChain.ts';

const invalid = (name: string, text: string): never => {
  throw new Error(`${name} is not a number: ${text}`);
};

describe('the timeout chain', () => {
  it('holds at its defaults: 30 < 40; 40 + 5 + 3 + 3 = 51 < 55; 55 + 5 = 60 < 65; 120 ≥ 100', () => {
    expect(timeoutChainViolations(chainDefaults)).toEqual([]);
    expect(chainDefaults).toMatchObject({
      dbStatementTimeoutMs: 30_000,
      requestDeadlineMs: 40_000,
      dbCommitTimeoutMs: 5_000,
      bffUpstreamTimeoutMs: 55_000,
      spaAbortMs: 65_000,
      idempotencyStaleAfterMs: 120_000,
    });
  });

  it('names each variable once, and every number of each tier', () => {
    const names = Object.values(timeoutChain).flatMap((entry) => (entry.env ? [entry.env] : []));
    expect(new Set(names).size).toBe(names.length);
    expect(chainNamesOf('spa')).toEqual(['spaSessionCheckMs', 'spaAbortMs', 'spaReadBudgetMs']);
  });

  // Each link broken alone is refused with its own reason.
  it.each([
    [{ dbStatementTimeoutMs: 40_000 }, /statement timeout .* below the request deadline/],
    [{ requestDeadlineMs: 45_000, idempotencyStaleAfterMs: 200_000 }, /below the BFF upstream timeout/],
    [{ dbCommitTimeoutMs: 10_000 }, /COMMIT or cancel .* \(56000 ms\) must be below the BFF upstream timeout/],
    [{ readYourWritesMarkWaitMs: 8_000 }, /look \+ release or mark \(56000 ms\) must be below the BFF upstream timeout/],
    [{ bffUpstreamTimeoutMs: 61_000 }, /below the SPA's abort/],
    [{ spaAbortMs: 60_000 }, /below the SPA's abort \(60000 ms\)/],
    [{ bffRenewalWaitMs: 11_000 }, /below the SPA's abort/],
    [{ idempotencyStaleAfterMs: 90_000 }, /stale-after .* at least the deadline \+ 60 s/],
    [{ bffRenewalWaitMs: 31_000, spaAbortMs: 100_000 }, /cannot exceed the renewal's own budget/],
    [{ bffRenewalReuseMs: 1_000 }, /must cover a whole renewal/],
  ])('refuses %o', (change, message) => {
    const broken = timeoutChainViolations({ ...chainDefaults, ...change });
    expect(broken).toHaveLength(1);
    expect(broken[0]).toMatch(message);
  });

  it('checks only the links among the tiers asked for', () => {
    const apiTooSlow = { ...chainDefaults, requestDeadlineMs: 60_000, idempotencyStaleAfterMs: 200_000 };
    expect(timeoutChainViolations(apiTooSlow)).toHaveLength(1);
    expect(timeoutChainViolations(apiTooSlow, ['bff', 'spa'])).toEqual([]);
    expect(chainLinks.filter((link) => link.tiers.includes('spa'))).toHaveLength(1);
  });

  it('reads each number from its variable, else its default, and refuses one that is not a number', () => {
    expect(resolveChain({ SPA_ABORT_MS: '70000', REQUEST_DEADLINE_MS: '' }, invalid)).toEqual({ ...chainDefaults, spaAbortMs: 70_000 });
    expect(() => resolveChain({ SPA_ABORT_MS: 'soon' }, invalid)).toThrow('SPA_ABORT_MS is not a number: soon');
    expect(() => resolveChain({ SPA_ABORT_MS: '-1' }, invalid)).toThrow('SPA_ABORT_MS is not a number: -1');
  });
});
