/**
 * Whether the database refused writes for lack of resources just now (SQLSTATE class 53:
 * a full disk, exhausted memory or connection slots), for `/api/ready`. `SELECT 1` still
 * answers on a full disk, so readiness cannot ask the database; it remembers instead:
 * every 503 counted as `insufficient_resources` marks the process not ready for the
 * Retry-After it told the client. The mark fades by itself: once space is back, the next
 * write succeeds and no new mark comes, so the API recovers with no restart.
 *
 * One per process, like the metrics it is read beside: a process is one API.
 */

let lastRefusalAt = Number.NEGATIVE_INFINITY;

/** A request answered 503 because the database lacked resources (a full disk). */
export function noteWriteRefusal(now = performance.now()): void {
  lastRefusalAt = now;
}

/** Whether a write was refused for lack of resources within the last `windowMs`. */
export function writesRefusedWithin(windowMs: number, now = performance.now()): boolean {
  return now - lastRefusalAt < windowMs;
}
