/**
 * getIdempotencyKey and listIdempotencyKeys: what the bank holds for this customer's keys,
 * sending nothing (adr/0051). A client that lost a send's answer, or its own record of the
 * send, learns whether the key is in flight, landed (with the stored answer a re-send
 * replays), refused, or unknown, instead of inferring it from the movements.
 *
 * Both read the primary: a replica that lags would answer "unknown" for a key that landed.
 * A send claims its key in its one statement (adr/0070, adr/0076): it is `inFlight` to the
 * key's read while it is on its way in this process (keysOnTheirWay.ts) or its statement runs
 * (operation and time unknown until it commits), and missing from the list until then, which
 * the spec calls partial.
 * `claimedAt` is the record's `received_at`, when the bank first received the key: its
 * `claimed_at` is the current holder's, which a takeover renews and the sandbox ages.
 */
import type { components } from '@tidewater/spec/openapi';
import type { Handlers } from '../../contract/operations.ts';
import { parseJsonColumn } from '../../data/statements.ts';
import { ApiProblem } from '../../errors/apiProblem.ts';
import type { DomainDeps } from '../deps.ts';
import type { KeysOnTheirWay } from './keysOnTheirWay.ts';

type KeyStatus = components['schemas']['IdempotencyKeyStatus'];

/** A key's record as a direct statement reads it: the answer's jsonb as text, the times as ISO strings. */
interface HeldRecord {
  key: string;
  operationId: string;
  status: string;
  responseStatus: number | null;
  responseBody: unknown;
  claimedAt: string;
  landedAt: string | null;
}

/** The default and the longest look back of the listing (the spec's numbers). */
const defaultLookBackMs = 15 * 60 * 1000;
const longestLookBackMs = 24 * 60 * 60 * 1000;
const listLimit = 50;

/** A record as the wire states it (idempotency.ts's protocol: claim, land, release). */
export function keyStatusOf(record: HeldRecord): KeyStatus {
  const stored = record.status === 'Executed' && record.responseStatus !== null ? { status: record.responseStatus, body: parseJsonColumn(record.responseBody) } : null;
  const state = stored && stored.status >= 400 ? 'refused' : stored || record.landedAt ? 'landed' : 'inFlight';
  return { key: record.key, state, operationId: record.operationId, claimedAt: new Date(record.claimedAt).toISOString(), answer: stored };
}

/** The handlers of the key reads; `onTheirWay` holds the keys of this process's sends not yet claimed. */
export function idempotencyKeyHandlers({ data }: DomainDeps, onTheirWay: KeysOnTheirWay): Pick<Handlers, 'getIdempotencyKey' | 'listIdempotencyKeys'> {
  /** Whether a statement claiming the key runs now (its advisory lock, adr/0070). */
  async function statementHolds(userId: string, key: string): Promise<boolean> {
    const [running] = await data.read((db) => db.$queryRaw<{ held: boolean }[]>`SELECT key_lock_held(${userId}::uuid, ${key}::text) AS held`);
    return running?.held === true || String(running?.held) === 't';
  }

  return {
    async getIdempotencyKey({ caller, path }) {
      const [record] = await data.read((db) => db.$queryRaw<HeldRecord[]>`
        SELECT key, operation_id AS "operationId", status, response_status AS "responseStatus", response_body AS "responseBody",
               received_at AS "claimedAt", landed_at AS "landedAt"
        FROM idempotency_records WHERE user_id = ${caller.userId}::uuid AND key = ${path.key}`);
      if (record) return { status: 200, body: keyStatusOf(record) };
      // A send has no record until its one statement commits: this process's hold, or the statement's, says it is in flight.
      const inFlight = onTheirWay.holderOf(caller.userId, path.key) !== undefined || (await statementHolds(caller.userId, path.key));
      const state = inFlight ? 'inFlight' : 'unknown';
      return { status: 200, body: { key: path.key, state, operationId: null, claimedAt: null, answer: null } };
    },
    async listIdempotencyKeys({ caller, query }) {
      const now = Date.now();
      const asked = query.since ? Date.parse(query.since) : now - defaultLookBackMs;
      // The validator checked the form; a time that form allows and Date cannot hold (23:59:60) is the caller's.
      if (Number.isNaN(asked)) throw new ApiProblem('VALIDATION_FAILED', '`since` is not an instant this API can read.');
      const since = new Date(Math.max(asked, now - longestLookBackMs));
      const records = await data.read((db) => db.$queryRaw<HeldRecord[]>`
        SELECT key, operation_id AS "operationId", status, response_status AS "responseStatus", response_body AS "responseBody",
               received_at AS "claimedAt", landed_at AS "landedAt"
        FROM idempotency_records WHERE user_id = ${caller.userId}::uuid AND received_at >= ${since.toISOString()}::timestamptz
        ORDER BY received_at DESC LIMIT ${listLimit}::int`);
      return { status: 200, body: { items: records.map(keyStatusOf) } };
    },
  };
}
