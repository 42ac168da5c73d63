/**
 * Sends this browser learnt had landed, kept for one customer and read by every tab
 * (adr/0065): one localStorage entry per customer (`tidewater:landed-sends:<userId>`). Two
 * things read it. A review whose money and payee match a send that landed within
 * ASK_AGAIN_WITHIN_MS asks "send it again?" before its button works, whichever tab sent it.
 * An outcome the sending page did not show itself (learnt after a reload, a sign-in or in
 * another tab) stands as a receipt until the visitor dismisses it.
 */
import { storedList, type HeldOperation } from './heldSendRecords.ts';

/** One send that landed. */
export interface LandedSend {
  /** Its Idempotency-Key. */
  key: string;
  operation: HeldOperation;
  /** The page it was sent from (`deposit:<accountId>`, `transfer`, …). */
  holdAs: string;
  accountId: string | null;
  /** The payload sent with the key: its money and payee are what a new send is matched on. */
  payload: unknown;
  /** When this browser learnt it landed (Date.now()). */
  landedAt: number;
  /** The movement's or transfer's id when the answer carried one, for the receipt's reference. */
  movementId: string | null;
  /** The tab whose page showed its own receipt (sendingTab()), so that tab shows no second one; null: no page did. */
  shownIn: string | null;
  /** The visitor dismissed its receipt (in any tab). */
  dismissed: boolean;
}

/**
 * 15 minutes: the window of the bank's own list of recent sends (listIdempotencyKeys), in
 * which a visitor who sends the same money to the same payee again is asked first. Long
 * enough to cover a lost answer, a reload and a second try; short enough that a regular
 * payment an hour later is not questioned.
 */
export const ASK_AGAIN_WITHIN_MS = 15 * 60 * 1000;
/** A dismissed or old entry is dropped after a day, and at most 50 are kept. */
const LANDED_LIFETIME_MS = 24 * 60 * 60 * 1000;
const MOST_KEPT = 50;

const prefix = 'tidewater:landed-sends:';
/** The storage entry's name for `userId`. */
export const landedSendsEntry = (userId: string) => `${prefix}${userId}`;

function isLanded(value: unknown): value is LandedSend {
  if (typeof value !== 'object' || value === null) return false;
  const entry = value as Record<string, unknown>;
  return typeof entry.key === 'string' && typeof entry.operation === 'string' && typeof entry.holdAs === 'string' && typeof entry.landedAt === 'number' && 'payload' in entry;
}

/** The customer's landed sends of the last day, newest first (unreadable ones dropped). */
export function readLandedSends(storage: Storage, userId: string, now = Date.now()): LandedSend[] {
  return storedList(storage, landedSendsEntry(userId))
    .filter(isLanded)
    .filter((entry) => now - entry.landedAt < LANDED_LIFETIME_MS)
    .map((entry) => ({ ...entry, accountId: entry.accountId ?? null, movementId: entry.movementId ?? null, shownIn: entry.shownIn ?? null, dismissed: entry.dismissed === true }))
    .sort((a, b) => b.landedAt - a.landedAt);
}

function write(storage: Storage, userId: string, entries: LandedSend[]): void {
  storage.setItem(landedSendsEntry(userId), JSON.stringify(entries.slice(0, MOST_KEPT)));
}

/** Adds `entry` (once per key: a key lands once). */
export function putLandedSend(storage: Storage, userId: string, entry: LandedSend, now = Date.now()): void {
  const entries = readLandedSends(storage, userId, now);
  if (entries.some((landed) => landed.key === entry.key)) return;
  write(storage, userId, [entry, ...entries]);
}

/** Marks `key`'s receipt dismissed. */
export function dismissLandedSend(storage: Storage, userId: string, key: string, now = Date.now()): void {
  write(
    storage,
    userId,
    readLandedSends(storage, userId, now).map((entry) => (entry.key === key ? { ...entry, dismissed: true } : entry)),
  );
}

/** The page's tab, for `shownIn`: kept in sessionStorage, so a reload is the same tab and a new tab is not. */
export function sendingTab(): string {
  if (typeof sessionStorage === 'undefined') return 'tab';
  const name = 'tidewater:tab';
  const known = sessionStorage.getItem(name);
  if (known) return known;
  const made = crypto.randomUUID();
  sessionStorage.setItem(name, made);
  return made;
}
