/**
 * One spelling of a JSON value, so that equal content always hashes equally: object
 * keys sorted (by UTF-16 code units), no whitespace, `undefined` members left out.
 * Used for the request hash of a money send and the audit chain's hashes; and jsonb's
 * own key order, for an answer that must read as its stored copy does.
 */
import { createHash } from 'node:crypto';

type KeyOrder = (a: string, b: string) => number;

/** The canonical JSON text of a JSON-safe value; throws on a bigint or a cycle. */
export function canonicalJson(value: unknown): string {
  return JSON.stringify(sortKeys(value, new Set()));
}

/** jsonb's own order of object keys: shorter first (in UTF-8 bytes), then bytewise. */
const jsonbKeyOrder: KeyOrder = (a, b) => Buffer.byteLength(a) - Buffer.byteLength(b) || Buffer.compare(Buffer.from(a), Buffer.from(b));

/**
 * The value with its object keys in the order PostgreSQL's jsonb keeps them, at every
 * depth: what an answer stored as jsonb reads back as. An answer sent from memory is
 * sent in this order, so its bytes equal every replay's (idempotency.ts).
 */
export function inJsonbOrder<T>(value: T): T {
  return sortKeys(value, new Set(), jsonbKeyOrder) as T;
}

function sortKeys(value: unknown, seen: Set<object>, order?: KeyOrder): unknown {
  if (typeof value === 'bigint') throw new TypeError('canonicalJson: write a bigint as a decimal string');
  if (value === null || typeof value !== 'object') return value;
  if (seen.has(value)) throw new TypeError('canonicalJson: a value refers to itself');
  seen.add(value);
  try {
    if (Array.isArray(value)) return value.map((item) => sortKeys(item === undefined ? null : item, seen, order));
    if (value instanceof Date) return value.toISOString();
    const sorted: Record<string, unknown> = {};
    for (const key of Object.keys(value).sort(order)) {
      const member = (value as Record<string, unknown>)[key];
      if (member !== undefined) sorted[key] = sortKeys(member, seen, order);
    }
    return sorted;
  } finally {
    seen.delete(value);
  }
}

/** The SHA-256 of a text, as 64 lowercase hex digits. */
export function sha256Hex(text: string): string {
  return createHash('sha256').update(text, 'utf8').digest('hex');
}
