/**
 * One spelling of a JSON value, so that equal content always hashes equally: object
 * keys sorted (by UTF-16 code units), no whitespace, `undefined` members left out.
 * Used for the request hash of a money send and the audit chain's hashes.
 */
import { createHash } from 'node:crypto';

/** The canonical JSON text of a JSON-safe value; throws on a bigint or a cycle. */
export function canonicalJson(value: unknown): string {
  return JSON.stringify(sortKeys(value, new Set()));
}

function sortKeys(value: unknown, seen: Set<object>): unknown {
  if (typeof value === 'bigint') throw new TypeError('canonicalJson: write a bigint as a decimal string');
  if (value === null || typeof value !== 'object') return value;
  if (seen.has(value)) throw new TypeError('canonicalJson: a value refers to itself');
  seen.add(value);
  try {
    if (Array.isArray(value)) return value.map((item) => sortKeys(item === undefined ? null : item, seen));
    if (value instanceof Date) return value.toISOString();
    const sorted: Record<string, unknown> = {};
    for (const key of Object.keys(value).sort()) {
      const member = (value as Record<string, unknown>)[key];
      if (member !== undefined) sorted[key] = sortKeys(member, seen);
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
