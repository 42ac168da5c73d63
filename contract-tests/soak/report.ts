/**
 * The soak's report: a summary for stdout, a JSON file, and an HTML page with two SVG
 * timelines (answers per second by status; p50 and p99 latency per second) and four panels
 * drawn from the API's `/metrics` scraped about once a second (scrapes.ts: retries, the
 * retry budget, 503s by cause, the pool), the fault windows shaded on each, and the figures
 * read from those scrapes (probe logins per second during a primary outage, retries spent).
 * Written under contract-tests/.results/.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { RequestRecord } from './clients.ts';
import type { Check } from './invariants.ts';
import type { FaultWindow } from './nemesis.ts';
import type { MetricsScrape } from './scrapes.ts';

/** Where reports go (ignored by git). */
export const resultsDir = fileURLToPath(new URL('../.results/', import.meta.url));

/** Everything a run produced. */
export interface SoakReport {
  options: Record<string, unknown>;
  startedAt: number;
  endedAt: number;
  operations: number;
  requests: readonly RequestRecord[];
  faults: readonly FaultWindow[];
  checks: readonly Check[];
  /** The API's `/metrics`, scraped about once a second during the run. */
  scrapes?: readonly MetricsScrape[];
}

/** Status classes, in the order they stack. */
const CLASSES = [
  { name: '2xx', color: '#2e7d32', test: (s: number) => s >= 200 && s < 300 },
  { name: '4xx', color: '#9e9e9e', test: (s: number) => s >= 400 && s < 500 && s !== 409 },
  { name: '409', color: '#f9a825', test: (s: number) => s === 409 },
  { name: '503', color: '#ef6c00', test: (s: number) => s === 503 },
  { name: 'other', color: '#000000', test: () => true },
] as const;
const FAULT_COLORS: Record<string, string> = { stop: '#90caf9', crash: '#ef9a9a', hang: '#ce93d8', terminate: '#ffe082', reset: '#a5d6a7', partition: '#ffcc80', 'lost-answer': '#bcaaa4', 'replica-stop': '#b0bec5', 'replication-cut': '#80cbc4', failover: '#f48fb1' };

const percentile = (sorted: number[], p: number) => (sorted.length ? sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]! : 0);
const escape = (text: string) => text.replace(/[&<>"]/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' })[c]!);
const count = (n: number) => n.toLocaleString('en-IE');

/** Counts by status, percentiles, per-second series. */
function summarize(report: SoakReport) {
  const byStatus = new Map<number, number>();
  for (const r of report.requests) byStatus.set(r.status, (byStatus.get(r.status) ?? 0) + 1);
  const answered = report.requests.filter((r) => r.status !== 0).map((r) => r.ms).sort((a, b) => a - b);
  const seconds = Math.max(1, Math.ceil((report.endedAt - report.startedAt) / 1_000));
  const perSecond = Array.from({ length: seconds }, () => ({ classes: CLASSES.map(() => 0), ms: [] as number[] }));
  for (const r of report.requests) {
    const at = Math.min(seconds - 1, Math.max(0, Math.floor((r.sentAt + r.ms - report.startedAt) / 1_000)));
    perSecond[at]!.classes[CLASSES.findIndex((c) => c.test(r.status))]! += 1;
    if (r.status !== 0) perSecond[at]!.ms.push(r.ms);
  }
  const faultsByKind = new Map<string, number>();
  for (const fault of report.faults) faultsByKind.set(fault.kind, (faultsByKind.get(fault.kind) ?? 0) + 1);
  return {
    seconds,
    byStatus: Object.fromEntries([...byStatus].sort(([a], [b]) => a - b)),
    p50: percentile(answered, 50),
    p99: percentile(answered, 99),
    perSecond: perSecond.map((s) => {
      const sorted = s.ms.sort((a, b) => a - b);
      return { classes: s.classes, p50: percentile(sorted, 50), p99: percentile(sorted, 99) };
    }),
    faultsByKind: Object.fromEntries(faultsByKind),
    metrics: metricFigures(report),
    againstFaults: unavailableAgainstFaults(report),
    passed: report.checks.filter((c) => c.violations === 0).length,
    failed: report.checks.filter((c) => c.violations > 0).length,
  };
}

/** The summary for stdout; its last line counts the checks. */
export function renderSummary(report: SoakReport): string {
  const s = summarize(report);
  const lines = [
    `Soak: ${JSON.stringify(report.options)}`,
    `${count(report.operations)} operations, ${count(report.requests.length)} requests in ${s.seconds} s; ${report.faults.length} faults (${Object.entries(s.faultsByKind).map(([k, n]) => `${k} ${n}`).join(', ')})`,
    `answers by status: ${Object.entries(s.byStatus).map(([status, n]) => `${status === '0' ? 'none' : status} ${count(n)}`).join(' · ')}`,
    `latency: p50 ${s.p50} ms · p99 ${s.p99} ms`,
    `step-up 503s: ${count(s.againstFaults.stepUps.inFaults)} in fault bands, ${count(s.againstFaults.stepUps.outside)} outside · hashing_queue 503s: ${count(s.againstFaults.hashingQueue.inFaults)} in fault bands, ${count(s.againstFaults.hashingQueue.outside)} outside`,
    ...(s.metrics ? [`from /metrics (${s.metrics.scrapes} scrapes): ${describeFigures(s.metrics)}`] : []),
    'checks:',
    ...report.checks.map((c) => `  ${c.violations === 0 ? '✓' : '✗'} ${c.name}${c.violations ? ` (${c.violations}): ${c.examples.join(' | ')}` : ''}`),
    `soak: ${s.passed} checks passed, ${s.failed} failed`,
  ];
  return lines.join('\n');
}

function timeline(report: SoakReport, s: ReturnType<typeof summarize>, kind: 'answers' | 'latency'): string {
  const width = 1000;
  const height = 220;
  const left = 50;
  const bottom = 24;
  const plotW = width - left - 10;
  const plotH = height - bottom - 10;
  const x = (second: number) => left + (second / s.seconds) * plotW;
  const shades = report.faults
    .map((f) => {
      const from = (f.startedAt - report.startedAt) / 1_000;
      const to = (f.healedAt - report.startedAt) / 1_000;
      return `<rect x="${x(from).toFixed(1)}" y="10" width="${Math.max(1, x(to) - x(from)).toFixed(1)}" height="${plotH}" fill="${FAULT_COLORS[f.kind] ?? '#ddd'}" opacity="0.45"><title>${f.kind} ${from.toFixed(1)}–${to.toFixed(1)} s</title></rect>`;
    })
    .join('');
  const barW = Math.max(1, plotW / s.seconds - 1);
  let body = '';
  let max = 1;
  if (kind === 'answers') {
    max = Math.max(1, ...s.perSecond.map((p) => p.classes.reduce((a, b) => a + b, 0)));
    body = s.perSecond
      .map((p, second) => {
        let y = 10 + plotH;
        return p.classes
          .map((n, i) => {
            if (!n) return '';
            const h = (n / max) * plotH;
            y -= h;
            return `<rect x="${x(second).toFixed(1)}" y="${y.toFixed(1)}" width="${barW.toFixed(1)}" height="${h.toFixed(1)}" fill="${CLASSES[i]!.color}"><title>${second} s: ${n} × ${CLASSES[i]!.name}</title></rect>`;
          })
          .join('');
      })
      .join('');
  } else {
    max = Math.max(1, ...s.perSecond.map((p) => p.p99));
    const line = (pick: (p: { p50: number; p99: number }) => number, color: string) =>
      `<polyline fill="none" stroke="${color}" stroke-width="1.5" points="${s.perSecond.map((p, second) => `${(x(second) + barW / 2).toFixed(1)},${(10 + plotH - (pick(p) / max) * plotH).toFixed(1)}`).join(' ')}"/>`;
    body = line((p) => p.p99, '#c62828') + line((p) => p.p50, '#1565c0');
  }
  const unit = kind === 'answers' ? '/s' : ' ms';
  const axis = `<line x1="${left}" y1="${10 + plotH}" x2="${width - 10}" y2="${10 + plotH}" stroke="#333"/><text x="4" y="18" font-size="11">${count(max)}${unit}</text><text x="4" y="${10 + plotH}" font-size="11">0</text>`;
  const ticks = Array.from({ length: Math.floor(s.seconds / 10) + 1 }, (_, i) => `<text x="${x(i * 10).toFixed(1)}" y="${height - 6}" font-size="11" text-anchor="middle">${i * 10}s</text>`).join('');
  const title = kind === 'answers' ? 'Answers per second by status (faults shaded)' : 'Latency per second: p50 (blue) and p99 (red)';
  return `<figure><figcaption>${title}</figcaption><svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" role="img" aria-label="${title}">${shades}${body}${axis}${ticks}</svg></figure>`;
}

/** The last scrape at or before `at` (else the first). */
function scrapeAt(scrapes: readonly MetricsScrape[], at: number): MetricsScrape {
  let found = scrapes[0]!;
  for (const scrape of scrapes) if (scrape.at <= at) found = scrape;
  return found;
}

/** The figures the report reads from `/metrics`. */
function metricFigures(report: SoakReport) {
  const scrapes = report.scrapes ?? [];
  if (scrapes.length < 2) return undefined;
  const last = scrapes[scrapes.length - 1]!;
  const first = scrapes[0]!;
  // Primary outages (stopped or crashed): the readiness gate's probe logins per second while down.
  let probes = 0;
  let outageMs = 0;
  for (const fault of report.faults) {
    if (fault.kind !== 'stop' && fault.kind !== 'crash') continue;
    probes += scrapeAt(scrapes, fault.healedAt).probes - scrapeAt(scrapes, fault.startedAt).probes;
    outageMs += fault.healedAt - fault.startedAt;
  }
  const delta = (pick: (s: MetricsScrape) => Record<string, number>) =>
    Object.fromEntries(Object.entries(pick(last)).map(([key, n]) => [key, n - (pick(first)[key] ?? 0)]).filter(([, n]) => (n as number) > 0));
  return {
    scrapes: scrapes.length,
    outageSeconds: Math.round(outageMs / 100) / 10,
    probeLoginsPerSecond: outageMs > 0 ? Math.round((probes / (outageMs / 1_000)) * 100) / 100 : 0,
    retries: delta((s) => s.retries),
    unavailable: delta((s) => s.unavailable),
    lowestBudgetTokens: Math.round(Math.min(...scrapes.map((s) => s.budgetTokens)) * 100) / 100,
    mostWaitingForPool: Math.max(...scrapes.map((s) => s.pool.waiting ?? 0)),
    replicaFallbacks: last.replicaFallbacks - first.replicaFallbacks,
  };
}

/**
 * Step-up 503s and `hashing_queue` 503s against the fault bands (adr/0053): a PIN check waits
 * in no queue, so outside a fault none should be refused. A step-up is inside a band when its
 * request overlapped one; a `hashing_queue` 503 (from the scrapes) when the scrape interval
 * that counted it did.
 */
export function unavailableAgainstFaults(report: Pick<SoakReport, 'requests' | 'faults' | 'scrapes'>) {
  const overlaps = (from: number, to: number) => report.faults.some((f) => from <= f.healedAt && to >= f.startedAt);
  const stepUps = { inFaults: 0, outside: 0 };
  for (const r of report.requests) {
    if (r.what !== 'stepUp' || r.status !== 503) continue;
    if (overlaps(r.sentAt, r.sentAt + r.ms)) stepUps.inFaults += 1;
    else stepUps.outside += 1;
  }
  const hashingQueue = { inFaults: 0, outside: 0 };
  const scrapes = report.scrapes ?? [];
  for (let i = 1; i < scrapes.length; i++) {
    const counted = (scrapes[i]!.unavailable.hashing_queue ?? 0) - (scrapes[i - 1]!.unavailable.hashing_queue ?? 0);
    if (counted <= 0) continue;
    if (overlaps(scrapes[i - 1]!.at, scrapes[i]!.at)) hashingQueue.inFaults += counted;
    else hashingQueue.outside += counted;
  }
  return { stepUps, hashingQueue };
}

/** The figures as one line. */
function describeFigures(m: NonNullable<ReturnType<typeof metricFigures>>): string {
  const list = (record: Record<string, number>) => Object.entries(record).map(([k, n]) => `${k} ${count(n)}`).join(', ') || 'none';
  return `probe logins ${m.probeLoginsPerSecond}/s over ${m.outageSeconds} s of primary outage · retries: ${list(m.retries)} · 503s by cause: ${list(m.unavailable)} · lowest budget ${m.lowestBudgetTokens} tokens · at most ${m.mostWaitingForPool} waiting for the pool · replica fallbacks ${count(m.replicaFallbacks)}`;
}

const SERIES_COLORS = ['#1565c0', '#c62828', '#2e7d32', '#ef6c00', '#6a1b9a', '#00838f', '#5d4037', '#757575', '#f9a825', '#ad1457'];

/** One SVG panel of lines over the run's seconds, faults shaded: `series` are [second, value] points. */
function linePanel(report: SoakReport, seconds: number, title: string, unit: string, series: Array<{ name: string; points: Array<[number, number]> }>): string {
  const width = 1000;
  const height = 180;
  const left = 50;
  const plotW = width - left - 10;
  const plotH = height - 24 - 10;
  const x = (second: number) => left + (Math.min(seconds, Math.max(0, second)) / seconds) * plotW;
  const max = Math.max(1, ...series.flatMap((line) => line.points.map(([, v]) => v)));
  const y = (value: number) => 10 + plotH - (value / max) * plotH;
  const shades = report.faults
    .map((f) => {
      const from = (f.startedAt - report.startedAt) / 1_000;
      const to = (f.healedAt - report.startedAt) / 1_000;
      return `<rect x="${x(from).toFixed(1)}" y="10" width="${Math.max(1, x(to) - x(from)).toFixed(1)}" height="${plotH}" fill="${FAULT_COLORS[f.kind] ?? '#ddd'}" opacity="0.35"><title>${f.kind}</title></rect>`;
    })
    .join('');
  const lines = series
    .map((line, i) => `<polyline fill="none" stroke="${SERIES_COLORS[i % SERIES_COLORS.length]}" stroke-width="1.5" points="${line.points.map(([s, v]) => `${x(s).toFixed(1)},${y(v).toFixed(1)}`).join(' ')}"><title>${escape(line.name)}</title></polyline>`)
    .join('');
  const legend = series.map((line, i) => `<span style="color:${SERIES_COLORS[i % SERIES_COLORS.length]}">■</span> ${escape(line.name)}`).join(' &nbsp; ');
  const axis = `<line x1="${left}" y1="${10 + plotH}" x2="${width - 10}" y2="${10 + plotH}" stroke="#333"/><text x="4" y="18" font-size="11">${count(Math.round(max * 10) / 10)}${unit}</text><text x="4" y="${10 + plotH}" font-size="11">0</text>`;
  const ticks = Array.from({ length: Math.floor(seconds / 10) + 1 }, (_, i) => `<text x="${x(i * 10).toFixed(1)}" y="${height - 6}" font-size="11" text-anchor="middle">${i * 10}s</text>`).join('');
  return `<figure><figcaption>${escape(title)} (from /metrics) &nbsp; ${legend || 'no data'}</figcaption><svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" role="img" aria-label="${escape(title)}">${shades}${lines}${axis}${ticks}</svg></figure>`;
}

/** The four panels drawn from the scrapes: retries, the budget, 503s by cause, the pool. */
function metricPanels(report: SoakReport, seconds: number): string {
  const scrapes = report.scrapes ?? [];
  if (scrapes.length < 2) return '<p>No /metrics scrapes were taken.</p>';
  const second = (s: MetricsScrape) => (s.at - report.startedAt) / 1_000;
  const keys = (pick: (s: MetricsScrape) => Record<string, number>) => [...new Set(scrapes.flatMap((s) => Object.keys(pick(s))))].sort();
  /** Per-second rates of a counter between consecutive scrapes. */
  const rates = (pick: (s: MetricsScrape) => Record<string, number>) =>
    keys(pick).map((key) => ({
      name: key,
      points: scrapes.slice(1).map((s, i): [number, number] => {
        const before = scrapes[i]!;
        const dt = Math.max(0.001, (s.at - before.at) / 1_000);
        return [second(s), Math.max(0, ((pick(s)[key] ?? 0) - (pick(before)[key] ?? 0)) / dt)];
      }),
    }));
  const values = (pick: (s: MetricsScrape) => Record<string, number>) =>
    keys(pick).map((key) => ({ name: key, points: scrapes.map((s): [number, number] => [second(s), pick(s)[key] ?? 0]) }));
  return [
    linePanel(report, seconds, 'Retry decisions per second by outcome; probe logins per second', '/s', [...rates((s) => s.retries), ...rates((s) => ({ 'probe logins': s.probes }))]),
    linePanel(report, seconds, 'Retry budget tokens', '', values((s) => ({ tokens: s.budgetTokens }))),
    linePanel(report, seconds, '503s per second by cause', '/s', rates((s) => s.unavailable)),
    linePanel(report, seconds, 'Pool connections (all pools): total, idle, waiting', '', values((s) => s.pool)),
  ].join('\n');
}

/** The HTML page. */
function renderHtml(report: SoakReport): string {
  const s = summarize(report);
  const legend = [...CLASSES.map((c) => [c.name, c.color]), ...Object.entries(FAULT_COLORS)]
    .map(([name, color]) => `<span style="display:inline-block;width:10px;height:10px;background:${color}"></span> ${escape(name!)}`)
    .join(' &nbsp; ');
  const rows = report.checks
    .map((c) => `<tr><td>${c.violations === 0 ? '✓' : '✗'}</td><td>${escape(c.name)}</td><td>${c.violations}</td><td>${escape(c.examples.join(' | '))}</td></tr>`)
    .join('');
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Tidewater soak</title>
<style>body{font:14px system-ui,sans-serif;margin:2rem;max-width:1100px}table{border-collapse:collapse}td,th{border:1px solid #ccc;padding:4px 8px;text-align:left;vertical-align:top}figure{margin:1rem 0}</style></head><body>
<h1>Soak: ${s.passed} checks passed, ${s.failed} failed</h1>
<p>${escape(JSON.stringify(report.options))}<br>${count(report.operations)} operations, ${count(report.requests.length)} requests in ${s.seconds} s; ${report.faults.length} faults; p50 ${s.p50} ms, p99 ${s.p99} ms.<br>Step-up 503s: ${count(s.againstFaults.stepUps.inFaults)} in fault bands, ${count(s.againstFaults.stepUps.outside)} outside; hashing_queue 503s: ${count(s.againstFaults.hashingQueue.inFaults)} in fault bands, ${count(s.againstFaults.hashingQueue.outside)} outside.<br>Answers: ${escape(Object.entries(s.byStatus).map(([k, n]) => `${k === '0' ? 'none' : k} ${count(n)}`).join(' · '))}</p>
<p>${legend}</p>
${s.metrics ? `<p>From /metrics (${s.metrics.scrapes} scrapes): ${escape(describeFigures(s.metrics))}</p>` : ''}
${timeline(report, s, 'answers')}
${timeline(report, s, 'latency')}
${metricPanels(report, s.seconds)}
<h2>Checks (from the database)</h2><table><tr><th></th><th>check</th><th>violations</th><th>examples</th></tr>${rows}</table>
<h2>Faults</h2><table><tr><th>fault</th><th>from</th><th>to</th></tr>${report.faults.map((f) => `<tr><td>${f.kind}</td><td>${((f.startedAt - report.startedAt) / 1000).toFixed(1)} s</td><td>${((f.healedAt - report.startedAt) / 1000).toFixed(1)} s</td></tr>`).join('')}</table>
</body></html>`;
}

/** Writes `soak-<stamp>.json` and `.html` (and `soak-latest.*`); answers the HTML's path. */
export function writeReport(report: SoakReport): string {
  mkdirSync(resultsDir, { recursive: true });
  const stamp = new Date(report.startedAt).toISOString().replace(/[:.]/g, '-');
  const json = JSON.stringify({ ...report, summary: summarize(report) }, null, 1);
  const html = renderHtml(report);
  for (const name of [`soak-${stamp}`, 'soak-latest']) {
    writeFileSync(`${resultsDir}${name}.json`, json);
    writeFileSync(`${resultsDir}${name}.html`, html);
  }
  return `${resultsDir}soak-${stamp}.html`;
}
