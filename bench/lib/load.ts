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
  /** CPU milliseconds the measured server spent per successful operation, when a meter was given. */
  cpuMsPerOp?: number;
  /** CPU milliseconds its database connections' server processes spent per successful operation, when a meter was given. */
  databaseCpuMsPerOp?: number;
}

/** One operation: resolves true when it succeeded, else a short reason. */
export type Operation = (client: number) => Promise<true | string>;

/** One load's raw counts, so slices of it can be pooled. */
interface Tally {
  latencies: number[];
  failures: Set<string>;
  ok: number;
  failed: number;
  wallMs: number;
  cpuMs: number;
  databaseCpuMs: number;
}

const emptyTally = (): Tally => ({ latencies: [], failures: new Set(), ok: 0, failed: 0, wallMs: 0, cpuMs: 0, databaseCpuMs: 0 });

/** Runs `clients` workers for `durationMs` and adds what they saw to `tally`. */
async function runInto(tally: Tally, clients: number, durationMs: number, operation: Operation): Promise<void> {
  const started = performance.now();
  const stopAt = started + durationMs;
  await Promise.all(
    Array.from({ length: clients }, async (_, client) => {
      while (performance.now() < stopAt) {
        const t0 = performance.now();
        const outcome = await operation(client).catch((error: unknown) => (error instanceof Error ? error.message : String(error)));
        tally.latencies.push(performance.now() - t0);
        if (outcome === true) tally.ok += 1;
        else {
          tally.failed += 1;
          tally.failures.add(outcome);
        }
      }
    }),
  );
  tally.wallMs += performance.now() - started;
}

function resultOf(t: Tally, metered: { api: boolean; database: boolean }): LoadResult {
  return {
    ...(metered.api ? { cpuMsPerOp: t.cpuMs / t.ok } : {}),
    ...(metered.database ? { databaseCpuMsPerOp: t.databaseCpuMs / t.ok } : {}),
    ok: t.ok,
    failed: t.failed,
    throughput: (t.ok * 1000) / t.wallMs,
    p50: percentile(t.latencies, 50),
    p99: percentile(t.latencies, 99),
    failures: [...t.failures].slice(0, 5),
  };
}

/** Runs the load. */
export async function closedLoop(clients: number, durationMs: number, operation: Operation): Promise<LoadResult> {
  const tally = emptyTally();
  await runInto(tally, clients, durationMs, operation);
  return resultOf(tally, { api: false, database: false });
}

/** Reads a cumulative CPU counter in milliseconds (e.g. a server process's, from /proc). */
type CpuMeter = () => number | Promise<number>;

/** Each side's meters: its server's CPU, and optionally its database connections' (PostgreSQL's backends for them). */
export interface CpuMeters {
  api: [CpuMeter, CpuMeter];
  database?: [CpuMeter, CpuMeter];
}

/**
 * Two loads compared side by side. Each `measure` runs both for `durationMs`, cut into
 * slices of `sliceMs` taken in the order a b b a a b b a …; every slice of a side is
 * pooled into that side's result (latencies together, throughput as all its successes
 * over all its wall time), across measures too, so several pairs of servers can add to
 * one comparison. A drift of the machine's speed over the measurement then falls on both
 * sides alike, where two long runs back to back would give it all to one of them
 * (bench/METHOD.md). With `meters`, each side's server CPU during its own slices is counted too
 * (`cpuMsPerOp`), and its database backends' (`databaseCpuMsPerOp`) when given.
 */
export interface Comparison {
  measure(clients: number, durationMs: number, sliceMs: number, a: Operation, b: Operation, meters?: CpuMeters): Promise<void>;
  /** Side a's and side b's results so far. */
  results(): [LoadResult, LoadResult];
}

export function comparison(): Comparison {
  const tallies = [emptyTally(), emptyTally()] as const;
  const metered = { api: true, database: true };
  return {
    async measure(clients, durationMs, sliceMs, a, b, meters) {
      metered.api &&= !!meters;
      metered.database &&= !!meters?.database;
      const slices = Math.max(2, 2 * Math.round(durationMs / sliceMs / 2));
      const perSlice = durationMs / slices;
      for (let i = 0; i < slices; i++) {
        for (const side of i % 2 === 0 ? [0, 1] : [1, 0]) {
          const api = meters?.api[side];
          const database = meters?.database?.[side];
          const before = [await api?.(), await database?.()];
          await runInto(tallies[side]!, clients, perSlice, side === 0 ? a : b);
          if (api) tallies[side]!.cpuMs += (await api()) - before[0]!;
          if (database) tallies[side]!.databaseCpuMs += (await database()) - before[1]!;
        }
      }
    },
    results: () => [resultOf(tallies[0], metered), resultOf(tallies[1], metered)],
  };
}
