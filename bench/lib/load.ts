/**
 * A closed-loop load: `clients` workers each send one operation, wait for its answer and
 * send the next, until `durationMs` has passed. Throughput counts operations that
 * succeeded per second of wall time; latencies are of every answer.
 */
import { percentile } from './report.ts';

/** What one run of the load measured. */
export interface LoadResult {
  ok: number;
  failed: number;
  /** Successful operations per second. */
  throughput: number;
  p50: number;
  p99: number;
  /** Distinct failures seen (status or message), to print. */
  failures: string[];
}

/** One operation: resolves true when it succeeded, else a short reason. */
export type Operation = (client: number) => Promise<true | string>;

/** Runs the load. */
export async function closedLoop(clients: number, durationMs: number, operation: Operation): Promise<LoadResult> {
  const latencies: number[] = [];
  const failures = new Set<string>();
  let ok = 0;
  let failed = 0;
  const started = performance.now();
  const stopAt = started + durationMs;
  await Promise.all(
    Array.from({ length: clients }, async (_, client) => {
      while (performance.now() < stopAt) {
        const t0 = performance.now();
        const outcome = await operation(client).catch((error: unknown) => (error instanceof Error ? error.message : String(error)));
        latencies.push(performance.now() - t0);
        if (outcome === true) ok += 1;
        else {
          failed += 1;
          failures.add(outcome);
        }
      }
    }),
  );
  const wallMs = performance.now() - started;
  return { ok, failed, throughput: (ok * 1000) / wallMs, p50: percentile(latencies, 50), p99: percentile(latencies, 99), failures: [...failures].slice(0, 5) };
}
