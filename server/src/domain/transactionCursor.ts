/**
 * The opaque cursor of listTransactions: the (createdAt, id) of the last movement of a
 * page, as base64url JSON. Movements are listed newest first by that pair, so the next
 * page is everything strictly before it, whatever was written meanwhile.
 */
import { ApiProblem } from '../http/apiProblem.ts';

/** A position in an account's movements. */
export interface CursorPosition {
  createdAt: Date;
  id: string;
}

const uuidPattern = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** The cursor after `position`. */
export function encodeCursor(position: CursorPosition): string {
  return Buffer.from(JSON.stringify([position.createdAt.toISOString(), position.id]), 'utf8').toString('base64url');
}

/** The position a cursor names; 400 VALIDATION_FAILED for anything this API did not make. */
export function decodeCursor(cursor: string): CursorPosition {
  try {
    const [createdAt, id] = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8')) as unknown[];
    const at = new Date(String(createdAt));
    if (typeof createdAt === 'string' && !Number.isNaN(at.getTime()) && typeof id === 'string' && uuidPattern.test(id)) {
      return { createdAt: at, id };
    }
  } catch {
    // falls through to the refusal
  }
  throw new ApiProblem('VALIDATION_FAILED', 'The cursor is not one this API gave out; start again without it.');
}
