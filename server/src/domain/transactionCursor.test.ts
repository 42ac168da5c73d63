import { describe, expect, it } from 'vitest';
import { decodeCursor, encodeCursor } from './transactionCursor.ts';

describe('the transactions cursor', () => {
  it('comes back as the position it was made from', () => {
    const position = { createdAt: new Date('2026-11-29T10:15:30.123Z'), id: '3f1c2a9e-6b7d-4c1e-9a3b-2f5e8d7c6b1a' };
    const cursor = encodeCursor(position);
    expect(cursor).toMatch(/^[A-Za-z0-9_-]+$/);
    expect(decodeCursor(cursor)).toEqual(position);
  });

  it.each([
    ['not base64 JSON', 'not-a-cursor'],
    ['JSON of another shape', Buffer.from('{"before":"x"}').toString('base64url')],
    ['a bad date', Buffer.from('["yesterday","3f1c2a9e-6b7d-4c1e-9a3b-2f5e8d7c6b1a"]').toString('base64url')],
    ['an id that is not a uuid', Buffer.from('["2026-11-29T10:15:30.123Z","1 OR 1=1"]').toString('base64url')],
  ])('refuses %s with 400 VALIDATION_FAILED', (_name, cursor) => {
    expect(() => decodeCursor(cursor)).toThrow(expect.objectContaining({ code: 'VALIDATION_FAILED', status: 400 }));
  });
});
