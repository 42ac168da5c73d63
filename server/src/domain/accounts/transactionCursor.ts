/**
 * The opaque cursor of listTransactions: the (createdAt, id) of the last movement of a
 * page, signed. Movements are listed newest first by that pair, so the next page is
 * everything strictly before it, whatever was written meanwhile.
 *
 * A cursor is tamper-evident (adr/0012): `base64url(JSON position) . base64url(HMAC)`,
 * the HMAC-SHA-256 of the account and the position under a key derived from the signing
 * secret. A cursor this API did not give out for this account, edited or made by hand, is
 * 400 VALIDATION_FAILED before anything reaches the database.
 */
import { createHmac, hkdfSync, timingSafeEqual } from 'node:crypto';
import { ApiProblem } from '../../errors/apiProblem.ts';

/** A position in an account's movements. */
export interface CursorPosition {
  createdAt: Date;
  id: string;
}

const uuidPattern = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const refusal = () => new ApiProblem('VALIDATION_FAILED', 'The cursor is not one this API gave out for this account; start again without it.');

/** Cursors signed with a key derived from `signingSecret`. */
export function transactionCursors(signingSecret: string) {
  const key = Buffer.from(hkdfSync('sha256', signingSecret, '', 'tidewater transactions cursor', 32));
  const mac = (accountId: string, payload: string) => createHmac('sha256', key).update(`${accountId}.${payload}`).digest().subarray(0, 16);

  return {
    /** The cursor after `position` in `accountId`'s movements. */
    encode(accountId: string, position: CursorPosition): string {
      const payload = Buffer.from(JSON.stringify([position.createdAt.toISOString(), position.id]), 'utf8').toString('base64url');
      return `${payload}.${mac(accountId, payload).toString('base64url')}`;
    },
    /** The position a cursor names; 400 VALIDATION_FAILED for anything this API did not make for `accountId`. */
    decode(accountId: string, cursor: string): CursorPosition {
      const [payload, signature, ...rest] = cursor.split('.');
      if (!payload || !signature || rest.length > 0) throw refusal();
      const given = Buffer.from(signature, 'base64url');
      const want = mac(accountId, payload);
      if (given.length !== want.length || !timingSafeEqual(given, want)) throw refusal();
      const [createdAt, id] = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as unknown[];
      const at = new Date(String(createdAt));
      if (typeof createdAt !== 'string' || Number.isNaN(at.getTime()) || typeof id !== 'string' || !uuidPattern.test(id)) throw refusal();
      return { createdAt: at, id };
    },
  };
}

/** The cursors' type. */
export type TransactionCursors = ReturnType<typeof transactionCursors>;
