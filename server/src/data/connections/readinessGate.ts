/**
 * The database readiness gate (adr/0011): what bridges an outage of about a minute
 * without a retry storm. One gate per database server, shared by the pools that log in
 * to it.
 *
 * - Open, it costs nothing: logins go through.
 * - A login that fails because the server cannot be reached (refused, timed out, the
 *   server starting or stopping) closes it. While it is closed no pool logs in: a
 *   connection asked for fails at once with `DatabaseUnavailable`, and ONE probe per
 *   DB_READINESS_PROBE_MS (1 s) tries a login of its own. The first that succeeds opens it.
 * - A request whose attempt met the closed gate waits for it to open (holding no
 *   connection), then runs again, spending no retry and no retry-budget token; its
 *   deadline still ends the wait (503). So during an outage the process makes about one
 *   login per second, whatever the traffic, and a reader is answered as soon as the
 *   database is back, within one probe interval.
 */
import { setTimeout as delay } from 'node:timers/promises';
import type { Logger } from 'pino';
import { classify } from '../retry/index.ts';
import { countGateClosure, countGateProbe } from '../../metrics.ts';
import { scopeSlot } from '../../request/asyncScope.ts';

const unavailableBrand = Symbol.for('tidewater.DatabaseUnavailable');

/** The gate is closed: the database is known to be unreachable; nothing was sent. */
export class DatabaseUnavailable extends Error {
  readonly [unavailableBrand] = true;
  /** The transient classifier's code for it: a connection failure, confirmed not applied. */
  readonly code = 'DATABASE_UNAVAILABLE';
  readonly gateName: string;
  constructor(gateName: string, options?: { cause?: unknown }) {
    super(`the database (${gateName}) cannot be reached just now`, options);
    this.gateName = gateName;
    this.name = 'DatabaseUnavailable';
  }
}

/** A snapshot for logs, tests and metrics. */
interface GateState {
  open: boolean;
  /** Requests waiting for it to open now. */
  waiters: number;
  /** Probe logins made since start. */
  probes: number;
  /** Times it closed since start. */
  closures: number;
}

/** One database server's gate. */
export interface ReadinessGate {
  readonly name: string;
  readonly isOpen: boolean;
  /** The login failure that closed it (while it is closed): what a refused request was really refused for. */
  readonly closedBy: unknown;
  /** Resolves at once when open, else when a probe finds the database back; rejects with the signal's reason when it fires first. */
  whenOpen(signal: AbortSignal): Promise<void>;
  /** A login failed: closes the gate (and starts its probe) when the error says the server cannot be reached. Answers whether it did. */
  noteLoginFailure(error: unknown): boolean;
  state(): GateState;
  /** Stops probing (the database is being closed). */
  stop(): void;
}

/** Login failures that say the server cannot be reached now (not "full", not "wrong password"); for a host list, that no host is the primary now. */
const unreachableKinds = new Set(['connection', 'cannotConnectNow', 'adminShutdown', 'notPrimary']);

/** Options of {@link readinessGate}. */
export interface GateOptions {
  /** For logs: "primary", "replica". */
  name: string;
  /** One login and `SELECT 1`; resolves when the database answers. */
  probe: () => Promise<void>;
  /** DB_READINESS_PROBE_MS: the wait before each probe. */
  intervalMs: number;
  logger?: Logger;
}

/** A new, open gate. */
export function readinessGate({ name, probe, intervalMs, logger }: GateOptions): ReadinessGate {
  let open = true;
  let stopped = false;
  let probes = 0;
  let closures = 0;
  let closedAt = 0;
  let closedBy: unknown;
  /** Each waiting request's "go on", called when the gate opens. */
  const waiting = new Set<() => void>();

  const sleep = (ms: number) => delay(ms, undefined, { ref: false });

  async function probeUntilOpen(): Promise<void> {
    while (!open && !stopped) {
      await sleep(intervalMs);
      if (stopped) return;
      probes += 1;
      try {
        await probe();
      } catch {
        countGateProbe(name, false);
        continue;
      }
      countGateProbe(name, true);
      open = true;
      logger?.info({ gate: name, downMs: Date.now() - closedAt, probes, waiting: waiting.size }, 'the database answers again; requests go through');
      for (const goOn of [...waiting]) goOn();
    }
  }

  return {
    name,
    get isOpen() {
      return open;
    },
    get closedBy() {
      return open ? undefined : closedBy;
    },
    whenOpen(signal) {
      if (open) return Promise.resolve();
      if (signal.aborted) return Promise.reject(signal.reason);
      return new Promise<void>((resolve, reject) => {
        const goOn = () => {
          signal.removeEventListener('abort', giveUp);
          waiting.delete(goOn);
          resolve();
        };
        const giveUp = () => {
          waiting.delete(goOn);
          reject(signal.reason);
        };
        waiting.add(goOn);
        signal.addEventListener('abort', giveUp, { once: true });
      });
    },
    noteLoginFailure(error) {
      const kind = classify(error)?.kind;
      if (kind === undefined || !unreachableKinds.has(kind)) return false;
      if (open && !stopped) {
        open = false;
        closures += 1;
        countGateClosure(name);
        closedAt = Date.now();
        closedBy = error;
        logger?.warn({ gate: name, err: error, probeEveryMs: intervalMs }, 'the database cannot be reached: requests wait for it while one probe tries');
        void probeUntilOpen();
      }
      return true;
    },
    state: () => ({ open, waiters: waiting.size, probes, closures }),
    stop() {
      stopped = true;
    },
  };
}

/** The gate the current attempt met, recorded by the pools it asked for a connection. */
const metGates = scopeSlot<{ gate?: ReadinessGate }>();

/** A pool refused a connection because `gate` is closed, or closed it: the current attempt met it. */
export function noteGateMet(gate: ReadinessGate): void {
  const watch = metGates.get();
  if (watch) watch.gate = gate;
}

/** Runs one attempt, remembering the closed gate it met (if any). */
export function watchGates<T>(fn: () => Promise<T>): { result: Promise<T>; gateMet(): ReadinessGate | undefined } {
  const watch: { gate?: ReadinessGate } = {};
  return {
    result: metGates.run(watch, fn),
    gateMet() {
      return watch.gate;
    },
  };
}
