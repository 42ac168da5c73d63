/**
 * The operators' picture (issue 16, adr/0018): the Grafana dashboard, its provisioning and
 * the Prometheus scrape config in ops/. Every metric a panel's PromQL names must be one the
 * API or the BFF exports (ops/metricNames.json, the list of their /metrics modules), with a
 * histogram named only by its _bucket/_sum/_count series, and that list is the modules' own
 * (server/src/metrics.ts, bff/src/metrics.ts); the panels the issue asks for
 * exist; the datasource the panels name is the one provisioned; Prometheus scrapes both
 * metrics ports.
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { bffMetricNames, registry as bffRegistry } from '../../bff/src/metrics.ts';
import { metricNames, registry as apiRegistry } from '../../server/src/metrics.ts';

const ops = (path: string) => fileURLToPath(new URL(`../../ops/${path}`, import.meta.url));
const json = <T>(path: string) => JSON.parse(readFileSync(ops(path), 'utf8')) as T;
const yaml = <T>(path: string) => parse(readFileSync(ops(path), 'utf8')) as T;

type MetricType = 'counter' | 'gauge' | 'histogram';
interface Panel {
  id: number;
  type: string;
  title: string;
  datasource?: { type: string; uid: string };
  gridPos: { h: number; w: number; x: number; y: number };
  targets?: Array<{ expr: string; datasource?: { uid: string } }>;
}

const lists = json<Record<string, Record<string, MetricType> | string>>('metricNames.json');
const known = new Map<string, MetricType>(
  Object.values(lists).flatMap((group) => (typeof group === 'string' ? [] : Object.entries(group))),
);
const dashboard = json<{ uid: string; title: string; panels: Panel[] }>('grafana/tidewater.json');
const queries = dashboard.panels.flatMap((panel) => (panel.targets ?? []).map((target) => ({ panel, expr: target.expr })));

/** PromQL's words that are not metrics: operators, modifiers, and the aggregators (which may stand before `by (...)`). */
const keywords = new Set([
  ...['by', 'without', 'on', 'ignoring', 'group_left', 'group_right', 'bool', 'offset', 'and', 'or', 'unless', 'inf', 'nan'],
  ...['sum', 'min', 'max', 'avg', 'count', 'group', 'stddev', 'stdvar', 'topk', 'bottomk', 'quantile', 'count_values'],
]);

/** The metric names a PromQL expression reads (not functions, aggregators, labels or keywords). */
function metricNamesIn(expr: string): string[] {
  const bare = expr
    .replace(/"(?:[^"\\]|\\.)*"/g, '""') // label values
    .replace(/\{[^}]*\}/g, '') // label matchers
    .replace(/\[[^\]]*\]/g, '') // ranges, $__rate_interval included
    .replace(/\b(by|without|on|ignoring|group_left|group_right)\s*\([^)]*\)/g, '$1'); // label lists
  const names: string[] = [];
  for (const match of bare.matchAll(/(?<![\w$.])([a-zA-Z_:][a-zA-Z0-9_:]*)(\s*\()?/g)) {
    const [, name, call] = match as unknown as [string, string, string | undefined];
    if (call || keywords.has(name.toLowerCase())) continue;
    names.push(name);
  }
  return names;
}

/** Why `name` is not a series the tiers export, or undefined when it is. */
function problemWith(name: string): string | undefined {
  const type = known.get(name);
  if (type === 'histogram') return `${name} is a histogram: name its _bucket, _sum or _count`;
  if (type) return undefined;
  const histogram = /^(.*)_(bucket|sum|count)$/.exec(name);
  if (histogram && known.get(histogram[1]!) === 'histogram') return undefined;
  return `${name} is not exported (ops/metricNames.json)`;
}

describe('ops/metricNames.json', () => {
  it("is the API's and the BFF's metric name modules, name for name", () => {
    const listed = (group: string) => Object.keys(lists[group] as Record<string, MetricType>).sort();
    expect(listed('api')).toEqual(Object.values(metricNames).sort());
    expect(listed('bff')).toEqual(Object.values(bffMetricNames).sort());
  });

  it('gives each metric the type its registry gives it (the process defaults in both)', async () => {
    const typesOf = async (registry: typeof apiRegistry) =>
      Object.fromEntries((await registry.getMetricsAsJSON()).map((metric) => [metric.name, String(metric.type)]));
    const [api, bff] = [await typesOf(apiRegistry), await typesOf(bffRegistry)];
    for (const [name, type] of Object.entries(lists.api as Record<string, MetricType>)) expect(api[name], name).toBe(type);
    for (const [name, type] of Object.entries(lists.bff as Record<string, MetricType>)) expect(bff[name], name).toBe(type);
    for (const [name, type] of Object.entries(lists.processDefaults as Record<string, MetricType>)) {
      expect(api[name], name).toBe(type);
      expect(bff[name], name).toBe(type);
    }
  });
});

describe('metricNamesIn (the check itself)', () => {
  it.each([
    ['sum by (cause) (rate(tidewater_unavailable_total{cause="busy_account"}[$__rate_interval]))', ['tidewater_unavailable_total']],
    ['histogram_quantile(0.95, sum by (le, operation) (rate(tidewater_http_request_duration_seconds_bucket[5m])))', ['tidewater_http_request_duration_seconds_bucket']],
    ['min by (gate) (tidewater_readiness_gate_open) or on (gate) vector(0)', ['tidewater_readiness_gate_open']],
    ['rate(a_total[1m]) / ignoring (x) b_total offset 5m', ['a_total', 'b_total']],
  ])('%s → %j', (expr, names) => {
    expect(metricNamesIn(expr)).toEqual(names);
  });

  it('refuses a name no tier exports, and a bare histogram', () => {
    expect(problemWith('tidewater_retries_total')).toMatch(/not exported/);
    expect(problemWith('tidewater_http_request_duration_seconds')).toMatch(/histogram/);
    expect(problemWith('tidewater_http_request_duration_seconds_count')).toBeUndefined();
    expect(problemWith('tidewater_unavailable_total_count')).toMatch(/not exported/);
  });
});

describe('the Grafana dashboard (ops/grafana/tidewater.json)', () => {
  it('names only metrics the API and the BFF export', () => {
    expect(queries.length).toBeGreaterThan(10);
    const problems = queries.flatMap(({ panel, expr }) => {
      const names = metricNamesIn(expr);
      if (names.length === 0) return [`${panel.title}: ${expr} names no metric`];
      return names.flatMap((name) => {
        const problem = problemWith(name);
        return problem ? [`${panel.title}: ${problem}`] : [];
      });
    });
    expect(problems).toEqual([]);
  });

  it('has the panels the issue asks for: request rate and latency, 503s by cause, retries and the budget, the pool, busy accounts', () => {
    const reading = (pattern: RegExp) => queries.filter(({ expr }) => pattern.test(expr)).map(({ panel }) => panel.title);
    expect(reading(/rate\(tidewater_http_request_duration_seconds_count/)).not.toEqual([]);
    expect(reading(/histogram_quantile\(.*tidewater_http_request_duration_seconds_bucket/)).not.toEqual([]);
    expect(reading(/by \(cause\) \(rate\(tidewater_unavailable_total/)).not.toEqual([]);
    expect(reading(/tidewater_db_retries_total/)).not.toEqual([]);
    expect(reading(/tidewater_retry_budget_tokens/)).not.toEqual([]);
    expect(reading(/by \(pool, state\) \(tidewater_pool_connections\)/)).not.toEqual([]);
    expect(reading(/tidewater_unavailable_total\{cause="busy_account"\}/)).not.toEqual([]);
  });

  it('every panel reads the provisioned Prometheus, has a unique id and fits the 24-column grid', () => {
    const datasources = yaml<{ datasources: Array<{ uid: string; type: string; url: string }> }>('grafana/provisioning/datasources/prometheus.yaml').datasources;
    expect(datasources).toHaveLength(1);
    const [prometheus] = datasources;
    expect(prometheus).toMatchObject({ type: 'prometheus', url: 'http://prometheus:9090' });
    for (const panel of dashboard.panels.filter((candidate) => candidate.type !== 'row')) {
      expect(panel.datasource, panel.title).toEqual({ type: 'prometheus', uid: prometheus!.uid });
      for (const target of panel.targets ?? []) expect(target.datasource?.uid, panel.title).toBe(prometheus!.uid);
    }
    expect(new Set(dashboard.panels.map((panel) => panel.id)).size).toBe(dashboard.panels.length);
    for (const { title, gridPos } of dashboard.panels) expect(gridPos.x + gridPos.w, title).toBeLessThanOrEqual(24);
  });

  it('is loaded from where docker-compose.yml mounts it', () => {
    const providers = yaml<{ providers: Array<{ type: string; options: { path: string } }> }>('grafana/provisioning/dashboards/tidewater.yaml').providers;
    expect(providers).toEqual([expect.objectContaining({ type: 'file', options: expect.objectContaining({ path: '/etc/grafana/dashboards' }) })]);
    expect(dashboard.uid).toBe('tidewater');
  });
});

describe('Prometheus (ops/prometheus.yml)', () => {
  it("scrapes the API's and the BFF's /metrics ports (9464, 9465), never a public one", () => {
    const config = yaml<{ scrape_configs: Array<{ job_name: string; metrics_path?: string; static_configs: Array<{ targets: string[] }> }> }>('prometheus.yml');
    const targets = Object.fromEntries(config.scrape_configs.map((job) => [job.job_name, job.static_configs.flatMap((group) => group.targets)]));
    expect(targets).toEqual({ 'tidewater-api': ['api:9464'], 'tidewater-bff': ['bff:9465'] });
    for (const job of config.scrape_configs) expect(job.metrics_path ?? '/metrics').toBe('/metrics');
  });
});
