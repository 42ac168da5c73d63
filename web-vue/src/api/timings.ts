/**
 * The SPA's end of the timeout chain (DESIGN.md "The numbers"). The server's
 * `config.ts` mirrors SPA_ABORT_MS and checks BFF timeout + 5 s < it at start-up.
 */

/**
 * 65 s: every request, read or write, is aborted then. The BFF's worst answer is its
 * 5 s renewal + 55 s upstream = 60 s; an abort at exactly 60 s would race a 503 that
 * says `applied: false`.
 */
export const SPA_ABORT_MS = 65_000;

/** 120 s: a read and its one retry all happen within this of the first attempt. */
export const READ_BUDGET_MS = 120_000;

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

/** 6 s: the session check at start-up; the BFF answers it from its cache within 5 s. */
export const SESSION_CHECK_MS = 6_000;

/** 60 s: the inactivity dialog opens this long before the session would end. */
export const IDLE_WARNING_SECONDS = 60;

/**
 * 65 s after a money send was first sent nothing it started can still commit (the SPA's
 * abort outlasts the BFF's timeout and the API's deadline), so an empty look-up by key
 * after this means it did not land.
 */
export const SEND_SETTLES_AFTER_MS = SPA_ABORT_MS;
