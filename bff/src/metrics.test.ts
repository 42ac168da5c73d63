/** The BFF's metric names are listed once (metrics.ts `bffMetricNames`). */
import { describe, expect, it } from 'vitest';
import { bffMetricNames, registry } from './metrics.ts';

describe('the BFF metrics', () => {
  it('lists every tidewater_ metric it registers in bffMetricNames, and nothing more', async () => {
    const registered = (await registry.getMetricsAsJSON()).map((m) => m.name).filter((name) => name.startsWith('tidewater_'));
    expect(registered.sort()).toEqual(Object.values(bffMetricNames).sort());
  });
});
