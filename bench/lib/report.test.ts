import { describe, expect, it } from 'vitest';
import { checks, median, percentile, ratio, ratioOf, scenarioNames, svg, table, type ScenarioResult } from './report.ts';
import { closedLoop, comparison } from './load.ts';

const scenario = (name: string, values: number[]): ScenarioResult => ({
  name,
  ratios: values.map((value, i) => ratioOf(`r${i}`, [value], 'baseline')),
  figures: [{ label: `${name} figure`, value: 10, unit: 'ms' }],
  notes: [],
});
const complete = () => scenarioNames.map((name) => scenario(name, [0.5, 1.2]));

describe('ratio and median', () => {
  it('divides by the baseline, and is NaN without one', () => {
    expect(ratio(522, 1_360)).toBeCloseTo(0.384, 3);
    expect(ratio(1, 0)).toBeNaN();
    expect(ratio(Number.NaN, 2)).toBeNaN();
    expect(ratio(1, Number.POSITIVE_INFINITY)).toBeNaN();
  });

  it('takes the middle value (mean of the middle two), ignoring NaN', () => {
    expect(median([3, 1, 2])).toBe(2);
    expect(median([0.4, 0.1, 0.3, 0.2])).toBeCloseTo(0.25);
    expect(median([0.38, Number.NaN, 0.42])).toBeCloseTo(0.4);
    expect(median([])).toBeNaN();
  });

  it('makes a ratio whose value is the median of its runs', () => {
    expect(ratioOf('x', [0.5, 0.9, 0.4], 'bare SQL', '≥ 0.5')).toEqual({ name: 'x', value: 0.5, runs: [0.5, 0.9, 0.4], baseline: 'bare SQL', target: '≥ 0.5' });
    expect(ratioOf('x', [0.5], 'one statement', undefined, [1.03, 0.99, 1])).toEqual({ name: 'x', value: 0.5, runs: [0.5], baseline: 'one statement', control: { value: 1, runs: [1.03, 0.99, 1] } });
  });

  it('answers nearest-rank percentiles', () => {
    const values = Array.from({ length: 100 }, (_, i) => 100 - i);
    expect(percentile(values, 50)).toBe(50);
    expect(percentile(values, 99)).toBe(99);
    expect(percentile([], 50)).toBeNaN();
  });
});

describe('the table', () => {
  it('has a row per ratio with its median, runs, baseline and target, and a failed scenario says so', () => {
    const text = table({
      runs: 3,
      scenarios: [
        { name: 'limit', ratios: [ratioOf('one account: API/bare throughput', [0.38, 0.4, 0.36], 'bare SQL', '≥ 0.5')], figures: [], notes: [] },
        { name: 'replica', ratios: [], figures: [], notes: [], error: 'no replica' },
      ],
    });
    const lines = text.split('\n');
    expect(lines[0]).toMatch(/^\| scenario +\| ratio +\| median +\| runs +\| against +\| target +\|$/);
    expect(lines[2]).toContain('one account: API/bare throughput');
    expect(lines[2]).toContain('| 0.38 ');
    expect(lines[2]).toContain('0.38 0.40 0.36');
    expect(lines[2]).toContain('≥ 0.5');
    expect(lines[3]).toContain('FAILED: no replica');
    expect(new Set(lines.map((line) => line.length)).size).toBe(1);
  });

  it('puts a ratio\'s A/A control beside it (median, then each run), blank for ratios without one', () => {
    const text = table({
      runs: 3,
      scenarios: [
        {
          name: 'limit',
          ratios: [
            ratioOf('one account: API/one statement throughput', [0.33, 0.35, 0.31], 'one statement', '≥ 0.40', [1.02, 0.97, 1.01]),
            ratioOf('one account: API/transaction throughput', [0.5, 0.52, 0.49], 'transaction'),
          ],
          figures: [],
          notes: [],
        },
        { name: 'replica', ratios: [], figures: [], notes: [], error: 'no replica' },
      ],
    });
    const lines = text.split('\n');
    expect(lines[0]).toMatch(/\| target +\| A\/A control +\|$/);
    expect(lines[2]).toMatch(/\| 1\.01 \(1\.02 0\.97 1\.01\) +\|$/);
    expect(lines[3]).toMatch(/\| +\|$/);
    expect(lines[4]).toContain('FAILED: no replica');
    expect(new Set(lines.map((line) => line.length)).size).toBe(1);
  });
});

describe('the SVG chart', () => {
  it('is one well-formed svg with a bar per ratio and per figure, and escapes labels', () => {
    const result = { startedAt: '2026-12-01T15:00:00.000Z', size: 'smoke' as const, runs: 1, scenarios: [scenario('limit', [0.4, 2]), { ...scenario('odd <&>', [1]) }] };
    const text = svg(result);
    expect(text.startsWith('<svg xmlns="http://www.w3.org/2000/svg"')).toBe(true);
    expect(text.trim().endsWith('</svg>')).toBe(true);
    // 3 ratio bars + 2 figure bars + the background.
    expect(text.match(/<rect /g)).toHaveLength(6);
    expect(text).toContain('odd &lt;&amp;&gt;: r0');
    expect(text).not.toContain('odd <&>');
    expect(text).toContain('1.0 = baseline');
  });
});

describe('the checks', () => {
  it('pass for every scenario with finite ratios', () => {
    const verdicts = checks({ scenarios: complete() });
    expect(verdicts.map((v) => v.scenario)).toEqual([...scenarioNames]);
    expect(verdicts.every((v) => v.passed)).toBe(true);
  });

  it('fail for a missing scenario, a failed one, one without ratios and a ratio that is not finite', () => {
    const scenarios = complete().filter((s) => s.name !== 'replica');
    scenarios[0] = { ...scenarios[0]!, error: 'boom' };
    scenarios[1] = { ...scenarios[1]!, ratios: [] };
    scenarios[2] = scenario(scenarios[2]!.name, [1, ratio(1, 0)]);
    const failed = checks({ scenarios }).filter((v) => !v.passed);
    expect(failed.map((v) => [v.scenario, v.why])).toEqual([
      ['limit', 'boom'],
      ['overhead', 'no ratios'],
      ['outage', 'not finite: r1'],
      ['replica', 'missing'],
    ]);
  });

  it('count only the scenarios asked for (--only)', () => {
    const scenarios = complete().filter((s) => s.name === 'overhead');
    expect(checks({ scenarios }, ['overhead'])).toEqual([{ scenario: 'overhead', passed: true, why: '2 finite ratios' }]);
    expect(checks({ scenarios }, ['overhead', 'limit']).map((v) => [v.scenario, v.passed])).toEqual([
      ['overhead', true],
      ['limit', false],
    ]);
  });
});

describe('the closed loop', () => {
  it('keeps each client busy until the time is up and counts what succeeded', async () => {
    let inFlight = 0;
    let most = 0;
    const result = await closedLoop(4, 200, async (client) => {
      inFlight += 1;
      most = Math.max(most, inFlight);
      await new Promise((resolve) => setTimeout(resolve, 10));
      inFlight -= 1;
      return client === 0 ? 'refused' : true;
    });
    expect(most).toBe(4);
    expect(result.ok).toBeGreaterThan(30);
    expect(result.failed).toBeGreaterThan(5);
    expect(result.failures).toEqual(['refused']);
    expect(result.throughput).toBeGreaterThan(100);
    expect(result.p50).toBeGreaterThanOrEqual(9);
  });
});

describe('two loads side by side', () => {
  it('takes them in interleaved slices (a b b a …), pools each side, and counts each side\'s CPU', async () => {
    const order: string[] = [];
    const note = (side: string, ms: number, outcome: true | string) => async () => {
      if (order.at(-1) !== side) order.push(side);
      await new Promise((resolve) => setTimeout(resolve, ms));
      return outcome;
    };
    const compared = comparison();
    // Each side's meter: a's server spends 1 ms of CPU per call of it, b's 2 ms.
    const cpu = { a: 0, b: 0 };
    const metered = (side: 'a' | 'b', ms: number, outcome: true | string, perCall: number) => async () => {
      cpu[side] += perCall;
      return note(side, ms, outcome)();
    };
    // Each side's database meter: twice a's server CPU, and b's own.
    await compared.measure(2, 400, 100, metered('a', 5, true, 1), metered('b', 20, 'refused', 2), { api: [() => cpu.a, () => cpu.b], database: [() => 2 * cpu.a, () => cpu.b] });
    const [a, b] = compared.results();
    // Four slices of 100 ms each, a b | b a | a b | b a: the two b and the two a in the middle run back to back.
    expect(order).toEqual(['a', 'b', 'a', 'b', 'a']);
    // Each side ran for about its 400 ms: a answers in 5 ms, b in 20 ms.
    expect(a.ok).toBeGreaterThan(80);
    expect(a.failed).toBe(0);
    expect(a.p50).toBeLessThan(15);
    expect(b.ok).toBe(0);
    expect(b.failed).toBeGreaterThan(20);
    expect(b.failures).toEqual(['refused']);
    expect(b.p50).toBeGreaterThanOrEqual(19);
    expect(a.throughput).toBeGreaterThan(200);
    expect(a.cpuMsPerOp).toBe(1);
    // b succeeded never: CPU per successful operation is infinite, not hidden.
    expect(b.cpuMsPerOp).toBe(Infinity);
    expect(a.databaseCpuMsPerOp).toBe(2);
    expect(b.databaseCpuMsPerOp).toBe(Infinity);
    // A second measure adds to the same sides.
    const okBefore = a.ok;
    await compared.measure(2, 200, 100, metered('a', 5, true, 1), metered('b', 20, 'refused', 2), { api: [() => cpu.a, () => cpu.b] });
    expect(compared.results()[0].ok).toBeGreaterThan(okBefore + 30);
    // That measure had no database meter: a per-operation figure over part of the operations would lie, so there is none.
    expect(compared.results()[0].databaseCpuMsPerOp).toBeUndefined();
    expect(compared.results()[0].cpuMsPerOp).toBe(1);
  });
});
