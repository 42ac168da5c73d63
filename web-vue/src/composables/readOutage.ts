/**
 * The last time a read met the bank down and began waiting for its one retry (adr/0074).
 * The request layer reports it the instant the first attempt fails (main.ts wires its
 * `onReadRetry` hook here); a page's reads that are still waiting since before then name the
 * outage from that instant (useRead), rather than "Taking longer than usual…" until the retry
 * has failed too. The outage is the bank's, not one read's: every read waiting meanwhile
 * meets it.
 */
import { shallowRef } from 'vue';
import type { ReadRetryCause } from '../api/resilientFetch.ts';

/** When (Date.now()) a read last met an outage, and which. */
export interface ReadOutage {
  at: number;
  cause: ReadRetryCause;
}

/** The last outage a read met; null until one does. */
export const lastReadOutage = shallowRef<ReadOutage | null>(null);

/** Notes that a read met `cause` just now and waits for its retry. */
export function noteReadOutage(cause: ReadRetryCause, at = Date.now()): void {
  lastReadOutage.value = { at, cause };
}
