/**
 * The soak reads the API's `/metrics` about once a second during the run (adr/0017), so the
 * report's panels and figures are drawn from the numbers an operator's Prometheus sees:
 * retries, the retry budget, 503s by cause, the pool, the readiness gate's probe logins.
 */
import { scrapeMetrics, sumOf, type Sample } from '@tidewater/test-support/metrics';

/** One scrape, reduced to the series the report draws. */
export interface MetricsScrape {
  /** Epoch ms. */
  at: number;
  /** Retry decisions so far, by outcome (retried, breaker_wait, retries_spent, budget_spent). */
  retries: Record<string, number>;
  budgetTokens: number;
  /** 503s so far, by cause. */
  unavailable: Record<string, number>;
  /** Connections of all pools now, by state (total, idle, waiting). */
  pool: Record<string, number>;
  /** Probe logins of the readiness gates so far. */
  probes: number;
  /** 1 while every gate is open. */
  gatesOpen: number;
  replicaFallbacks: number;
}

/** Sums of `name` by the values of `label`. */
function byLabel(samples: readonly Sample[], name: string, label: string): Record<string, number> {
  const sums: Record<string, number> = {};
  for (const s of samples) if (s.name === name) sums[s.labels[label] ?? ''] = (sums[s.labels[label] ?? ''] ?? 0) + s.value;
  return sums;
}

/** The reduced scrape of `samples`. */
function reduceScrape(at: number, samples: readonly Sample[]): MetricsScrape {
  const gates = samples.filter((s) => s.name === 'tidewater_readiness_gate_open');
  return {
    at,
    retries: byLabel(samples, 'tidewater_db_retries_total', 'outcome'),
    budgetTokens: sumOf(samples, 'tidewater_retry_budget_tokens'),
    unavailable: byLabel(samples, 'tidewater_unavailable_total', 'cause'),
    pool: byLabel(samples, 'tidewater_pool_connections', 'state'),
    probes: sumOf(samples, 'tidewater_readiness_gate_probes_total'),
    gatesOpen: gates.every((s) => s.value === 1) ? 1 : 0,
    replicaFallbacks: sumOf(samples, 'tidewater_replica_fallbacks_total'),
  };
}

/** Scrapes `metricsUrl` every `everyMs` until `stop()`, which answers the scrapes (a failed scrape is skipped). */
export function scrapeEvery(metricsUrl: string, everyMs = 1_000): { stop(): Promise<MetricsScrape[]> } {
  const scrapes: MetricsScrape[] = [];
  let running = true;
  const loop = (async () => {
    while (running) {
      const at = Date.now();
      try {
        scrapes.push(reduceScrape(at, await scrapeMetrics(metricsUrl)));
      } catch {
        // a scrape the loaded API did not answer in time: a gap in the panels
      }
      await new Promise((resolve) => setTimeout(resolve, Math.max(0, everyMs - (Date.now() - at))));
    }
  })();
  return {
    async stop() {
      running = false;
      await loop;
      return scrapes;
    },
  };
}
