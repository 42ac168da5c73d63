/** Tallies and latency percentiles of one scenario run. */

/** How one send ended. */
export type Outcome = 'ok' | 'busy' | 'refused' | 'other';

/** One send: how it ended and how long it took. */
export interface Sample {
  outcome: Outcome;
  ms: number;
  /** For `other`: what it was (status and code), to print. */
  detail?: string;
}

/** The summary of a run. */
export interface Tally {
  ok: number;
  busy: number;
  refused: number;
  other: number;
  p50: number;
  p99: number;
  wallMs: number;
  others: string[];
}

/** The nearest-rank percentile `p` (0–100) of sorted values. */
function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return 0;
  const rank = Math.min(sorted.length, Math.max(1, Math.ceil((p / 100) * sorted.length)));
  return sorted[rank - 1]!;
}

/** Summarises samples taken over `wallMs`. */
function tally(samples: Sample[], wallMs: number): Tally {
  const count = (outcome: Outcome) => samples.filter((s) => s.outcome === outcome).length;
  const sorted = samples.map((s) => s.ms).sort((a, b) => a - b);
  const others = [...new Set(samples.filter((s) => s.outcome === 'other').map((s) => s.detail ?? '?'))];
  return { ok: count('ok'), busy: count('busy'), refused: count('refused'), other: count('other'), p50: percentile(sorted, 50), p99: percentile(sorted, 99), wallMs, others };
}

/** Runs `n` sends at once; each is timed. */
export async function runAll(n: number, send: (index: number) => Promise<Omit<Sample, 'ms'>>): Promise<Tally> {
  const started = performance.now();
  const samples = await Promise.all(
    Array.from({ length: n }, async (_, index) => {
      const t0 = performance.now();
      const result = await send(index).catch((error: unknown) => ({ outcome: 'other' as const, detail: error instanceof Error ? error.message : String(error) }));
      return { ...result, ms: performance.now() - t0 };
    }),
  );
  return tally(samples, performance.now() - started);
}
