/**
 * The SPA's numbers (adr/0004). Its end of the timeout chain (the abort,
 * the read budget, the session check) is written once in the contract workspace
 * (contract/src/timeoutChain.ts) and served by the BFF in index.html as the BFF resolved
 * it (SPA_ABORT_MS, ...), so the BFF's and the API's start-up checks see the numbers the
 * SPA runs on; read once at start, with the table's defaults when none were served (the
 * vite dev server, unit tests). The rest are the SPA's own.
 */
import { readServedTimings } from '@tidewater/contract/servedTimings';

const served = readServedTimings(globalThis.document);

/**
 * Every request, read or write, is aborted then (65 s by default). The BFF's worst answer
 * is its renewal wait + its upstream timeout (60 s); an abort at exactly that would race a
 * 503 that says `applied: false`.
 */
export const SPA_ABORT_MS = served.spaAbortMs;

/** A read and its one retry all happen within this of the first attempt (120 s by default). */
export const READ_BUDGET_MS = served.spaReadBudgetMs;

/** 5 s: the wait after a gateway's 502/503/504 that names none (JSON or empty body). */
export const GATEWAY_WAIT_MS = 5_000;

/** 1 s: the wait after a connection that failed before any answer. */
export const CONNECTION_WAIT_MS = 1_000;

/** Up to a fifth is added to every wait at random, so one outage's readers do not return together. */
export const MAX_JITTER_FRACTION = 0.2;

/** 5 s: "Taking longer than usual…" appears; below this a hint would flicker on most loads. */
export const WAIT_HINT_SLOW_MS = 5_000;

/** 20 s: "Still trying…" appears, and a read can be stopped. */
export const WAIT_HINT_STILL_MS = 20_000;

/** The session check at start-up (6 s by default); the BFF answers it from its session store within 5 s. */
export const SESSION_CHECK_MS = served.spaSessionCheckMs;

/** 60 s: the inactivity dialog opens this long before the session would end. */
export const IDLE_WARNING_SECONDS = 60;

/**
 * The SPA's abort after a money send was first sent, nothing it started can still commit
 * (the abort outlasts the BFF's timeout and the API's deadline), so an empty look-up by
 * key after this means it did not land.
 */
export const SEND_SETTLES_AFTER_MS = SPA_ABORT_MS;
