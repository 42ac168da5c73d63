/**
 * Each account's audit rows form a hash chain (adr/0010): row `seq` n holds the
 * hash of row n − 1 as `prev_hash` (the first holds 64 zeros) and its own `hash`, the
 * SHA-256 of that `prev_hash` and its canonical content. Changing, removing or
 * reordering any row breaks every hash after it. The chain's head (last seq and hash) is
 * kept on the account row, which every append locks, so two appends cannot fork it.
 *
 * Amounts in payloads are decimal strings (bigint-safe and spelled one way in jsonb).
 */
import { canonicalJson, sha256Hex } from '../idempotency/canonicalJson.ts';

/** The `prev_hash` of an account's first row. */
export const genesisHash = '0'.repeat(64);

/** What a row's hash covers. */
export interface AuditContent {
  accountId: string;
  seq: number;
  action: string;
  payload: Record<string, unknown>;
  ledgerEntryId: string | null;
  requestId: string | null;
  traceId: string | null;
}

/** The head of a chain: its last row's seq and hash (0 and the genesis hash when empty). */
export interface ChainHead {
  auditSeq: number;
  auditHash: string;
}

/** The hash of one row. */
function auditHash(prevHash: string, content: AuditContent): string {
  return sha256Hex(`${prevHash}\n${canonicalJson(contentOf(content))}`);
}

/** The next row after `head`: its seq, prev_hash and hash. */
export function nextLink(head: ChainHead, content: Omit<AuditContent, 'seq'>): { seq: number; prevHash: string; hash: string } {
  const seq = head.auditSeq + 1;
  return { seq, prevHash: head.auditHash, hash: auditHash(head.auditHash, { ...content, seq }) };
}

/** Exactly the members a hash covers, whatever else the row carries. */
function contentOf(row: AuditContent): AuditContent {
  const { accountId, seq, action, payload, ledgerEntryId, requestId, traceId } = row;
  return { accountId, seq, action, payload, ledgerEntryId, requestId, traceId };
}

/** One stored row, as the verifier reads it. */
export interface StoredAuditRow extends AuditContent {
  id: string;
  prevHash: string;
  hash: string;
}

/**
 * Checks one account's rows (in seq order, from the first) against each other and
 * against the head kept on the account. Answers one sentence per broken row.
 */
export function chainProblems(accountId: string, rows: StoredAuditRow[], head: ChainHead): string[] {
  const problems: string[] = [];
  let previous = genesisHash;
  rows.forEach((row, index) => {
    const name = `audit row ${row.id} (account ${accountId}, seq ${row.seq})`;
    if (row.seq !== index + 1) problems.push(`${name}: expected seq ${index + 1}; a row is missing or out of order`);
    if (row.prevHash !== previous) problems.push(`${name}: prev_hash does not match the hash of the row before it`);
    if (auditHash(row.prevHash, row) !== row.hash) problems.push(`${name}: hash does not match its content`);
    previous = row.hash;
  });
  const last = rows.at(-1);
  if ((last?.seq ?? 0) !== head.auditSeq || previous !== head.auditHash) {
    problems.push(`account ${accountId}: its chain head (seq ${head.auditSeq}) does not match its last audit row (seq ${last?.seq ?? 0})`);
  }
  return problems;
}
