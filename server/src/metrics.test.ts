/** The API's metric names are listed once (metrics.ts `metricNames`), and retry reasons stay bounded. */
import { describe, expect, it } from 'vitest';
import { bounded, countRetry, metricNames, registry } from './metrics.ts';

describe('the API metrics', () => {
  it('lists every tidewater_ metric it registers in metricNames, and nothing more', async () => {
    const registered = (await registry.getMetricsAsJSON()).map((m) => m.name).filter((name) => name.startsWith('tidewater_'));
    expect(registered.sort()).toEqual(Object.values(metricNames).sort());
  });

  it('keeps a retry reason a short code, and at most 40 of them', () => {
    expect(bounded('40001')).toBe('40001');
    expect(bounded('ECONNREFUSED')).toBe('ECONNREFUSED');
    expect(bounded('user@example.com')).toBe('other');
    expect(bounded('a'.repeat(5))).toBe('other');
    for (let i = 0; i < 60; i++) bounded(`CODE_${i}`);
    expect(bounded('CODE_59')).toBe('other');
    expect(bounded('40001')).toBe('40001');
  });

  it('counts a refused retry as a budget refusal too', async () => {
    const refusals = async () => (await registry.getSingleMetric(metricNames.retryBudgetRefusals)!.get()).values[0]?.value ?? 0;
    const before = await refusals();
    countRetry('40P01', 'budget_spent');
    expect(await refusals()).toBe(before + 1);
  });
});
