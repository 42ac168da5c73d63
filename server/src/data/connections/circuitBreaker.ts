/**
 * The database's circuit breaker (adr/0011): what carries the bank through an outage of
 * about a minute without a retry storm. One breaker per database server, shared by the
 * pools that log in to it.
 *
 * - **Closed** (passing), it costs nothing: logins go through.
 * - A login that fails because the server cannot be reached (refused, timed out, the
 *   server starting or stopping) **opens** it. While it is open no pool logs in: a
 *   connection asked for fails at once with `DatabaseUnavailable`, and every
 *   DB_READINESS_PROBE_MS (1 s) it goes **half-open**: ONE probe login of its own, while
 *   requests are still refused. The first probe that succeeds closes it.
 * - A request whose attempt met the open breaker waits for it to close (holding no
 *   connection), then runs again, spending no retry and no retry-budget token; its
 *   deadline still ends the wait (503). So during an outage the process makes about one
 *   login per second, whatever the traffic, and a reader is answered as soon as the
 *   database is back, within one probe interval.
 */
import { setTimeout as delay } from 'node:timers/promises';
import type { Logger } from 'pino';
import { classify } from '../retry/index.ts';
import { countBreakerOpening, countBreakerProbe } from '../../metrics.ts';
import { scopeSlot } from '../../request/asyncScope.ts';

const unavailableBrand = Symbol.for('tidewater.DatabaseUnavailable');

/** The breaker is open: the database is known to be unreachable; nothing was sent. */
export class DatabaseUnavailable extends Error {
  readonly [unavailableBrand] = true;
  /** The transient classifier's code for it: a connection failure, confirmed not applied. */
  readonly code = 'DATABASE_UNAVAILABLE';
  readonly breakerName: string;
  constructor(breakerName: string, options?: { cause?: unknown }) {
    super(`the database (${breakerName}) cannot be reached just now`, options);
    this.breakerName = breakerName;
    this.name = 'DatabaseUnavailable';
  }
}

/** Closed: logins pass. Open: refused, waiting for the next probe. Half-open: refused, one probe login under way. */
type BreakerState = 'closed' | 'open' | 'half-open';

/** A snapshot for logs, tests and metrics. */
interface BreakerSnapshot {
  state: BreakerState;
  /** Requests waiting for it to close now. */
  waiters: number;
  /** Probe logins made since start. */
  probes: number;
  /** Times it opened since start. */
  openings: number;
}

/** One database server's circuit breaker. */
export interface CircuitBreaker {
  readonly name: string;
  readonly state: BreakerState;
  /** The login failure that opened it (while it is not closed): what a refused request was really refused for. */
  readonly openedBy: unknown;
  /** Resolves at once when closed, else when a probe finds the database back; rejects with the signal's reason when it fires first. */
  whenClosed(signal: AbortSignal): Promise<void>;
  /** A login failed: opens the breaker (and starts its probes) when the error says the server cannot be reached. Answers whether it did. */
  noteLoginFailure(error: unknown): boolean;
  snapshot(): BreakerSnapshot;
  /** Stops probing (the database is being closed). */
  stop(): void;
}

/** Login failures that say the server cannot be reached now (not "full", not "wrong password"); for a host list, that no host is the primary now. */
const unreachableKinds = new Set(['connection', 'cannotConnectNow', 'adminShutdown', 'notPrimary']);

/** Options of {@link circuitBreaker}. */
export interface BreakerOptions {
  /** For logs: "primary", "replica". */
  name: string;
  /** One login and `SELECT 1`; resolves when the database answers. */
  probe: () => Promise<void>;
  /** DB_READINESS_PROBE_MS: the wait before each probe. */
  intervalMs: number;
  logger?: Logger;
}

/** A new, closed breaker. */
export function circuitBreaker({ name, probe, intervalMs, logger }: BreakerOptions): CircuitBreaker {
  let state: BreakerState = 'closed';
  let stopped = false;
  let probes = 0;
  let openings = 0;
  let openedAt = 0;
  let openedBy: unknown;
  /** Each waiting request's "go on", called when the breaker closes. */
  const waiting = new Set<() => void>();

  const sleep = (ms: number) => delay(ms, undefined, { ref: false });

  async function probeUntilClosed(): Promise<void> {
    while (state !== 'closed' && !stopped) {
      await sleep(intervalMs);
      if (stopped) return;
      probes += 1;
      state = 'half-open';
      try {
        await probe();
      } catch {
        countBreakerProbe(name, false);
        state = 'open';
        continue;
      }
      countBreakerProbe(name, true);
      state = 'closed';
      logger?.info({ breaker: name, downMs: Date.now() - openedAt, probes, waiting: waiting.size }, 'the database answers again; requests go through');
      for (const goOn of [...waiting]) goOn();
    }
  }

  return {
    name,
    get state() {
      return state;
    },
    get openedBy() {
      return state === 'closed' ? undefined : openedBy;
    },
    whenClosed(signal) {
      if (state === 'closed') return Promise.resolve();
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
      if (state === 'closed' && !stopped) {
        state = 'open';
        openings += 1;
        countBreakerOpening(name);
        openedAt = Date.now();
        openedBy = error;
        logger?.warn({ breaker: name, err: error, probeEveryMs: intervalMs }, 'the database cannot be reached: requests wait for it while one probe tries');
        void probeUntilClosed();
      }
      return true;
    },
    snapshot: () => ({ state, waiters: waiting.size, probes, openings }),
    stop() {
      stopped = true;
    },
  };
}

/** The open breaker the current attempt met, recorded by the pools it asked for a connection. */
const metBreakers = scopeSlot<{ breaker?: CircuitBreaker }>();

/** A pool refused a connection because `breaker` is open, or opened it: the current attempt met it. */
export function noteBreakerMet(breaker: CircuitBreaker): void {
  const watch = metBreakers.get();
  if (watch) watch.breaker = breaker;
}

/** Runs one attempt, remembering the open breaker it met (if any). */
export function watchBreakers<T>(fn: () => Promise<T>): { result: Promise<T>; openBreakerMet(): CircuitBreaker | undefined } {
  const watch: { breaker?: CircuitBreaker } = {};
  return {
    result: metBreakers.run(watch, fn),
    openBreakerMet() {
      return watch.breaker;
    },
  };
}
