/**
 * The pure half of `npm run bench` (unit-tested in report.test.ts): ratios, medians, the
 * result file's shape, the one table it prints, the SVG chart, and the checks that a run
 * produced every scenario with finite ratios (what CI's smoke run counts).
 */

/** One ratio against a baseline measured in the same run; `value` is the median over `runs`. */
export interface Ratio {
  name: string;
  value: number;
  /** Each run's value (one, or `--runs N` of them). */
  runs: number[];
  /** What the ratio is measured against, in words ("bare SQL", "layers off", "the deadline"). */
  baseline: string;
  /** The issue's target, when it names one, e.g. "≥ 0.5". */
  target?: string;
  /**
   * The same ratio with the baseline on both sides (an A/A run, measured the same way in the
   * same run): how far the ratio moves with nothing changed. Its median and each run's value.
   */
  control?: { value: number; runs: number[] };
}

/** An absolute figure: for the chart and the JSON, never the headline. */
export interface Figure {
  label: string;
  value: number;
  unit: string;
}

/** One scenario's outcome. */
export interface ScenarioResult {
  name: string;
  ratios: Ratio[];
  figures: Figure[];
  notes: string[];
  /** Set when the scenario could not run; its ratios are then missing. */
  error?: string;
}

/** The whole result file (`bench/.results/<ISO date-time>.json`). */
export interface BenchResult {
  startedAt: string;
  finishedAt: string;
  size: 'smoke' | 'default';
  runs: number;
  machine: { cpus: number; node: string; postgres: string };
  notes: string[];
  scenarios: ScenarioResult[];
}

/** The scenarios every run must have (the checks look for each). */
export const scenarioNames = ['limit', 'overhead', 'outage', 'replica', 'contention', 'stepup', 'startup', 'revocation'] as const;
export type ScenarioName = (typeof scenarioNames)[number];

/** `measured / baseline`; NaN when either is missing or the baseline is 0 (the checks then fail). */
export function ratio(measured: number, baseline: number): number {
  if (!Number.isFinite(measured) || !Number.isFinite(baseline) || baseline === 0) return Number.NaN;
  return measured / baseline;
}

/** The median (the mean of the middle two for an even count); NaN for none. */
export function median(values: number[]): number {
  const sorted = values.filter((v) => !Number.isNaN(v)).sort((a, b) => a - b);
  if (sorted.length === 0) return Number.NaN;
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
}

/** Builds a ratio from its runs' values: the median is the figure. */
export function ratioOf(name: string, runs: number[], baseline: string, target?: string, controlRuns?: number[]): Ratio {
  return { name, value: median(runs), runs, baseline, ...(target ? { target } : {}), ...(controlRuns ? { control: { value: median(controlRuns), runs: controlRuns } } : {}) };
}

/** The nearest-rank percentile `p` (0–100) of unsorted values; NaN for none. */
export function percentile(values: number[], p: number): number {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const rank = Math.min(sorted.length, Math.max(1, Math.ceil((p / 100) * sorted.length)));
  return sorted[rank - 1]!;
}

const formatNumber = (value: number) => (Number.isFinite(value) ? (Math.abs(value) >= 100 ? value.toFixed(0) : value.toFixed(2)) : String(value));

/** An A/A control's cell: its median, then each run's value in brackets. */
const controlCell = (control: Ratio['control']) => (control ? `${formatNumber(control.value)} (${control.runs.map(formatNumber).join(' ')})` : '');

/**
 * The one table: a row per ratio (scenario, ratio, median, each run, baseline, target), and
 * an `A/A control` column beside them when some ratio has one.
 */
export function table(result: Pick<BenchResult, 'scenarios' | 'runs'>): string {
  const withControl = result.scenarios.some((s) => s.ratios.some((r) => r.control));
  const header = ['scenario', 'ratio', 'median', 'runs', 'against', 'target', ...(withControl ? ['A/A control'] : [])];
  const rows: string[][] = [];
  for (const scenario of result.scenarios) {
    if (scenario.error) rows.push([scenario.name, `FAILED: ${scenario.error.slice(0, 90)}`, ...header.slice(2).map(() => '')]);
    for (const r of scenario.ratios) {
      rows.push([scenario.name, r.name, formatNumber(r.value), r.runs.map(formatNumber).join(' '), r.baseline, r.target ?? '', ...(withControl ? [controlCell(r.control)] : [])]);
    }
  }
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((row) => row[i]!.length)));
  const line = (cells: string[]) => `| ${cells.map((c, i) => c.padEnd(widths[i]!)).join(' | ')} |`;
  return [line(header), `|${widths.map((w) => '-'.repeat(w + 2)).join('|')}|`, ...rows.map(line)].join('\n');
}

const escapeXml = (text: string) => text.replace(/[<>&"']/g, (c) => ({ '<': '&lt;', '>': '&gt;', '&': '&amp;', '"': '&quot;', "'": '&apos;' })[c]!);

/**
 * A hand-written SVG: one horizontal bar per ratio (a line marks 1.0, the baseline), and
 * below it one bar per absolute figure, scaled within its unit.
 */
export function svg(result: Pick<BenchResult, 'scenarios' | 'startedAt' | 'size' | 'runs'>): string {
  const rowHeight = 18;
  const labelWidth = 430;
  const barWidth = 360;
  const ratios = result.scenarios.flatMap((s) => s.ratios.map((r) => ({ label: `${s.name}: ${r.name}`, value: r.value })));
  const figures = result.scenarios.flatMap((s) => s.figures.map((f) => ({ label: `${s.name}: ${f.label}`, value: f.value, unit: f.unit })));
  const maxRatio = Math.max(1.2, ...ratios.map((r) => (Number.isFinite(r.value) ? r.value : 0)));
  const maxByUnit = new Map<string, number>();
  for (const f of figures) maxByUnit.set(f.unit, Math.max(maxByUnit.get(f.unit) ?? 0, Number.isFinite(f.value) ? f.value : 0));
  const parts: string[] = [];
  let y = 40;
  parts.push(`<text x="10" y="22" font-size="15" font-weight="bold">Tidewater bench ${escapeXml(result.startedAt)} (${result.size}, runs ${result.runs}): ratios against same-run baselines</text>`);
  const one = labelWidth + (1 / maxRatio) * barWidth;
  const ratiosTop = y;
  for (const r of ratios) {
    const width = Number.isFinite(r.value) ? Math.max(1, (r.value / maxRatio) * barWidth) : 0;
    parts.push(`<text x="${labelWidth - 6}" y="${y + 13}" font-size="12" text-anchor="end">${escapeXml(r.label)}</text>`);
    parts.push(`<rect x="${labelWidth}" y="${y + 2}" width="${width.toFixed(1)}" height="${rowHeight - 5}" fill="#2b6cb0"/>`);
    parts.push(`<text x="${(labelWidth + width + 4).toFixed(1)}" y="${y + 13}" font-size="11">${escapeXml(formatNumber(r.value))}</text>`);
    y += rowHeight;
  }
  parts.push(`<line x1="${one.toFixed(1)}" y1="${ratiosTop}" x2="${one.toFixed(1)}" y2="${y}" stroke="#c53030" stroke-dasharray="4 3"/>`);
  parts.push(`<text x="${one.toFixed(1)}" y="${y + 12}" font-size="11" fill="#c53030" text-anchor="middle">1.0 = baseline</text>`);
  y += 34;
  parts.push(`<text x="10" y="${y}" font-size="14" font-weight="bold">Absolute figures (each bar scaled within its unit)</text>`);
  y += 10;
  for (const f of figures) {
    const max = maxByUnit.get(f.unit) || 1;
    const width = Number.isFinite(f.value) ? Math.max(1, (f.value / max) * barWidth) : 0;
    parts.push(`<text x="${labelWidth - 6}" y="${y + 13}" font-size="12" text-anchor="end">${escapeXml(f.label)}</text>`);
    parts.push(`<rect x="${labelWidth}" y="${y + 2}" width="${width.toFixed(1)}" height="${rowHeight - 5}" fill="#718096"/>`);
    parts.push(`<text x="${(labelWidth + width + 4).toFixed(1)}" y="${y + 13}" font-size="11">${escapeXml(`${formatNumber(f.value)} ${f.unit}`)}</text>`);
    y += rowHeight;
  }
  const height = y + 20;
  const width = labelWidth + barWidth + 120;
  return [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}" font-family="sans-serif">`,
    `<rect width="100%" height="100%" fill="white"/>`,
    ...parts,
    '</svg>',
    '',
  ].join('\n');
}

/** One check per scenario expected (all, unless `--only` named some): it ran, and it has at least one ratio, each finite. */
export function checks(result: Pick<BenchResult, 'scenarios'>, expected: Iterable<ScenarioName> = scenarioNames): Array<{ scenario: string; passed: boolean; why: string }> {
  return [...expected].map((name) => {
    const scenario = result.scenarios.find((s) => s.name === name);
    if (!scenario) return { scenario: name, passed: false, why: 'missing' };
    if (scenario.error) return { scenario: name, passed: false, why: scenario.error };
    if (scenario.ratios.length === 0) return { scenario: name, passed: false, why: 'no ratios' };
    const bad = scenario.ratios.filter((r) => !Number.isFinite(r.value));
    if (bad.length) return { scenario: name, passed: false, why: `not finite: ${bad.map((r) => r.name).join(', ')}` };
    return { scenario: name, passed: true, why: `${scenario.ratios.length} finite ratios` };
  });
}
