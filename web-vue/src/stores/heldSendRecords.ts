/**
 * Held sends as the browser keeps them for one customer (adr/0051): what a send whose
 * answer is not known needs to be checked or sent again with the same key after a reload,
 * in another tab, after the browser restarts or after signing in again. One localStorage
 * entry per customer (`tidewater:held-sends:<userId>`), written synchronously before the
 * request leaves, read by every tab. A record lives until its outcome is known, or
 * HELD_SEND_LIFETIME_MS after it was first sent.
 */

/** What a held send does, and so which request sends it again. */
export type HeldOperation = 'deposit' | 'withdraw' | 'transfer' | 'openAccount';

/** One send whose outcome this browser does not know. */
export interface HeldSendRecord {
  /** Its Idempotency-Key: every send of it carries this one. */
  key: string;
  operation: HeldOperation;
  /** The page it was sent from (`deposit:<accountId>`, `transfer`, `open-account`). */
  holdAs: string;
  /** The account the send moves money into or out of, for its name and its re-send (null: opening an account). */
  accountId: string | null;
  /** The exact payload first sent with the key; only it goes again. */
  payload: unknown;
  /** When the key was first sent (Date.now()). */
  firstSentAt: number;
  /** An answer said the key cannot be trusted to replay (adr/0009's verifyRequired): check before anything else. */
  checkFirst: boolean;
}

/**
 * 24 h: long enough for a visitor who closed the laptop mid-send to come back the next
 * day; the API keeps a key's record for longer (it never expires one), so a re-send within
 * it always meets its first outcome. Past it the record is dropped unread.
 */
export const HELD_SEND_LIFETIME_MS = 24 * 60 * 60 * 1000;

const prefix = 'tidewater:held-sends:';

/** The storage entry's name for `userId`. */
export const heldSendsEntry = (userId: string) => `${prefix}${userId}`;

function isRecord(value: unknown): value is HeldSendRecord {
  if (typeof value !== 'object' || value === null) return false;
  const record = value as Record<string, unknown>;
  return (
    typeof record.key === 'string' &&
    typeof record.holdAs === 'string' &&
    typeof record.firstSentAt === 'number' &&
    ['deposit', 'withdraw', 'transfer', 'openAccount'].includes(record.operation as string) &&
    (record.accountId === null || typeof record.accountId === 'string') &&
    'payload' in record
  );
}

/**
 * The JSON array kept under `entry`, or an empty one when it is missing or unreadable (written
 * by an older version, or by hand): what every tab's records are read through.
 */
export function storedList(storage: Storage, entry: string): unknown[] {
  try {
    const parsed: unknown = JSON.parse(storage.getItem(entry) ?? '[]');
    return Array.isArray(parsed) ? parsed : [];
  } catch {
    return [];
  }
}

/** The customer's live records (expired and unreadable ones dropped), oldest first. */
export function readHeldSends(storage: Storage, userId: string, now = Date.now()): HeldSendRecord[] {
  return storedList(storage, heldSendsEntry(userId))
    .filter(isRecord)
    .filter((record) => now - record.firstSentAt < HELD_SEND_LIFETIME_MS)
    .map((record) => ({ ...record, checkFirst: record.checkFirst === true }))
    .sort((a, b) => a.firstSentAt - b.firstSentAt);
}

function write(storage: Storage, userId: string, records: HeldSendRecord[]): void {
  if (records.length === 0) storage.removeItem(heldSendsEntry(userId));
  else storage.setItem(heldSendsEntry(userId), JSON.stringify(records));
}

/**
 * Adds `record`, or updates the one with its key (its first-sent time kept). Throws when
 * the browser refuses to store it: the send must not leave unrecorded.
 */
export function putHeldSend(storage: Storage, userId: string, record: HeldSendRecord, now = Date.now()): void {
  const records = readHeldSends(storage, userId, now);
  const existing = records.find((held) => held.key === record.key);
  const next = existing ? { ...record, firstSentAt: existing.firstSentAt } : record;
  write(storage, userId, [...records.filter((held) => held.key !== record.key), next]);
}

/** Forgets the record of `key` (its outcome is known); true when there was one. */
export function removeHeldSend(storage: Storage, userId: string, key: string, now = Date.now()): boolean {
  const records = readHeldSends(storage, userId, now);
  const kept = records.filter((held) => held.key !== key);
  write(storage, userId, kept);
  return kept.length !== records.length;
}

const settledPrefix = 'tidewater:settled-sends:';

/** The storage entry of the keys whose outcome this browser learnt, for `userId`. */
const settledSendsEntry = (userId: string) => `${settledPrefix}${userId}`;

interface Settled {
  key: string;
  at: number;
}

/** The keys this browser learnt an outcome of within the lifetime (unreadable entries dropped). */
function liveSettled(storage: Storage, userId: string, now: number): Settled[] {
  return storedList(storage, settledSendsEntry(userId)).filter((entry): entry is Settled => {
    const settled = entry as Partial<Settled> | null;
    return typeof settled?.key === 'string' && typeof settled.at === 'number' && now - settled.at < HELD_SEND_LIFETIME_MS;
  });
}

/** The keys whose outcome this browser learnt within the lifetime (so the bank's list of recent sends need not tell them again). */
export function settledKeys(storage: Storage, userId: string, now = Date.now()): Set<string> {
  return new Set(liveSettled(storage, userId, now).map((entry) => entry.key));
}

/** Remembers that `key`'s outcome is known here (the last 100 are kept; an unreadable entry is replaced). */
export function rememberSettled(storage: Storage, userId: string, key: string, now = Date.now()): void {
  const entries = liveSettled(storage, userId, now).filter((entry) => entry.key !== key);
  storage.setItem(settledSendsEntry(userId), JSON.stringify([...entries, { key, at: now }].slice(-100)));
}
