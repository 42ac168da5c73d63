import { createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { transactionCursors } from './transactionCursor.ts';

const cursors = transactionCursors('a-test-signing-secret-0123456789abcdef');
const accountId = '9b2f0c1e-1d2c-4b3a-8f7e-6d5c4b3a2f1e';
const position = { createdAt: new Date('2026-11-29T10:15:30.123Z'), id: '3f1c2a9e-6b7d-4c1e-9a3b-2f5e8d7c6b1a' };
const payloadOf = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');

describe('the transactions cursor', () => {
  it('comes back as the position it was made from', () => {
    const cursor = cursors.encode(accountId, position);
    expect(cursor).toMatch(/^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+$/);
    expect(cursors.decode(accountId, cursor)).toEqual(position);
  });

  const genuine = cursors.encode(accountId, position);
  // prettier-ignore
  it.each([
    ['not a cursor at all', 'not-a-cursor'],
    ['a well-formed position with no signature (a hand-made cursor)', payloadOf([position.createdAt.toISOString(), position.id])],
    ['a negative year, signed by a guess', `${payloadOf(['-000001-01-01T00:00:00.000Z', position.id])}.${createHmac('sha256', 'guess').update('x').digest('base64url')}`],
    ['a genuine signature on an edited position', `${payloadOf(['2020-01-01T00:00:00.000Z', position.id])}.${genuine.split('.')[1]}`],
    ['a cursor another account was given', cursors.encode('0d3c2b1a-0000-4000-8000-000000000000', position)],
    ['a cursor signed with another secret', transactionCursors('another-secret-entirely-0123456789abcd').encode(accountId, position)],
    ['three parts', `${genuine}.extra`],
  ])('refuses %s with 400 VALIDATION_FAILED', (_name, cursor) => {
    expect(() => cursors.decode(accountId, cursor)).toThrow(expect.objectContaining({ code: 'VALIDATION_FAILED', status: 400 }));
  });
});
