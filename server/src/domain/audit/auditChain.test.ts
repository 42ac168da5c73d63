import { describe, expect, it } from 'vitest';
import { chainProblems, genesisHash, nextLink, type ChainHead, type StoredAuditRow } from './auditChain.ts';

const accountId = '00000000-0000-4000-8000-000000000001';

/** A valid chain of `n` deposits of 100. */
function chain(n: number): { rows: StoredAuditRow[]; head: ChainHead } {
  let head: ChainHead = { auditSeq: 0, auditHash: genesisHash };
  const rows: StoredAuditRow[] = [];
  for (let i = 0; i < n; i++) {
    const content = {
      accountId,
      action: 'deposit',
      payload: { amountMinor: '100', balanceAfterMinor: String(100 * (i + 1)) },
      ledgerEntryId: `00000000-0000-4000-8000-00000000010${i}`,
      requestId: null,
      traceId: `trace-${i}`,
    };
    const link = nextLink(head, content);
    rows.push({ ...content, id: String(i + 1), seq: link.seq, prevHash: link.prevHash, hash: link.hash });
    head = { auditSeq: link.seq, auditHash: link.hash };
  }
  return { rows, head };
}

describe('the audit chain', () => {
  it('accepts an intact chain and an empty one', () => {
    const { rows, head } = chain(4);
    expect(chainProblems(accountId, rows, head)).toEqual([]);
    expect(chainProblems(accountId, [], { auditSeq: 0, auditHash: genesisHash })).toEqual([]);
  });

  it.each<[string, (rows: StoredAuditRow[]) => StoredAuditRow[], RegExp]>([
    ['a changed payload', (rows) => rows.map((r) => (r.seq === 2 ? { ...r, payload: { ...r.payload, amountMinor: '1000' } } : r)), /audit row 2 .*hash does not match its content/],
    ['a changed action', (rows) => rows.map((r) => (r.seq === 3 ? { ...r, action: 'withdrawal' } : r)), /audit row 3 .*hash does not match/],
    ['a removed row', (rows) => rows.filter((r) => r.seq !== 2), /audit row 3 .*expected seq 2/],
    ['rows swapped', (rows) => [rows[0]!, rows[2]!, rows[1]!, rows[3]!], /prev_hash does not match/],
    ['a re-hashed row whose successor still points at the old hash', (rows) => rows.map((r) => (r.seq === 2 ? { ...r, hash: 'f'.repeat(64) } : r)), /audit row 3 .*prev_hash does not match/],
  ])('names the broken row after %s', (_name, tamper, want) => {
    const { rows, head } = chain(4);
    expect(chainProblems(accountId, tamper(rows), head).join('\n')).toMatch(want);
  });

  it('notices a head that does not match the last row (a truncated chain)', () => {
    const { rows, head } = chain(3);
    expect(chainProblems(accountId, rows.slice(0, 2), head)).toEqual([
      `account ${accountId}: its chain head (seq 3) does not match its last audit row (seq 2)`,
    ]);
  });

});
