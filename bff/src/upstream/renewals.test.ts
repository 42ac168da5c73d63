import { describe, expect, it } from 'vitest';
import { createRenewals, type RenewalOutcome } from './renewals.ts';

const renewed = (n: number): RenewalOutcome => ({
  kind: 'renewed',
  tokens: { accessToken: `a${n}`, refreshToken: `r${n}`, accessExpiresAt: n },
});

/** A renew function whose calls resolve when the test says so. */
function scripted() {
  const calls: Array<{ token: string; settle: (outcome: RenewalOutcome) => void }> = [];
  const renew = (token: string) => new Promise<RenewalOutcome>((settle) => calls.push({ token, settle }));
  return { calls, renew };
}

describe('createRenewals', () => {
  it('shares one call among concurrent renewals of the same token', async () => {
    const { calls, renew } = scripted();
    const renewals = createRenewals(renew, 60_000);
    const outcomes = Promise.all([
      renewals.renew('r0', 't1'),
      renewals.renew('r0', 't2'),
      renewals.renew('r0', 't3'),
    ]);
    expect(calls).toHaveLength(1);
    calls[0]!.settle(renewed(1));
    expect(await outcomes).toEqual([renewed(1), renewed(1), renewed(1)]);
  });

  it('hands a just-rotated token the same result for the reuse window, then forgets it', async () => {
    let now = 1_000;
    const { calls, renew } = scripted();
    const renewals = createRenewals(renew, 60_000, () => now);
    const first = renewals.renew('r0', 't');
    calls[0]!.settle(renewed(1));
    await first;
    now += 59_000;
    expect(await renewals.renew('r0', 't')).toEqual(renewed(1));
    expect(calls).toHaveLength(1);
    now += 2_000;
    void renewals.renew('r0', 't');
    expect(calls).toHaveLength(2);
  });

  it('remembers a refusal, so every request of the session hears it', async () => {
    const { calls, renew } = scripted();
    const renewals = createRenewals(renew, 60_000);
    const first = renewals.renew('r0', 't');
    calls[0]!.settle({ kind: 'refused' });
    await first;
    expect(await renewals.renew('r0', 't')).toEqual({ kind: 'refused' });
    expect(calls).toHaveLength(1);
  });

  it('does not remember an outage: the next request asks again', async () => {
    const { calls, renew } = scripted();
    const renewals = createRenewals(renew, 60_000);
    const first = renewals.renew('r0', 't');
    calls[0]!.settle({ kind: 'unavailable', detail: 'refresh: timeout' });
    expect(await first).toMatchObject({ kind: 'unavailable' });
    const second = renewals.renew('r0', 't');
    expect(calls).toHaveLength(2);
    calls[1]!.settle(renewed(2));
    expect(await second).toEqual(renewed(2));
  });

  it('keeps different tokens apart', () => {
    const { calls, renew } = scripted();
    const renewals = createRenewals(renew, 60_000);
    void renewals.renew('r0', 't');
    void renewals.renew('r9', 't');
    expect(calls.map((call) => call.token)).toEqual(['r0', 'r9']);
  });
});
