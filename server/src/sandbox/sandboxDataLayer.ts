/**
 * The sandbox's data layer (adr/0044): the real one, with the failure a request's
 * `Tidewater-Simulate` names (simulatedSend.ts) placed where the real failure happens, so
 * everything above it (the money runner, the idempotency protocol, the problem handler)
 * runs as in production and answers what it would answer then. Composed only when
 * API_SANDBOX=true (app.ts); the request's first transaction or statement-as-commit is
 * its money send's (the header is taken on money sends only), and meets the failure:
 *
 * - `unavailable-not-applied`: the database refuses the connection (57P03) before
 *   anything is sent: nothing moved, the runner releases the claim, 503 `applied: false`;
 * - `busy`: every attempt lost its lock wait (`ContentionExhausted`): the runner re-checks
 *   and answers 503 busy, the claim released;
 * - `unavailable-unknown-landed`: the send commits, then its COMMIT's answer is lost
 *   (`CommitOutcomeUnknown`): 503 without `applied`, and the key replays the 201. A send the
 *   bank refused (a missing account) landed nothing: its claim stays and goes stale in
 *   `holdMs`, as for `unavailable-unknown-not-landed`, then the key runs again to its refusal;
 * - `unavailable-unknown-not-landed`: a COMMIT starts and its answer is lost, but the send's
 *   work was never in it: 503 without `applied`; the claim stays, as after a real lost
 *   COMMIT, only its age is set to go stale in `holdMs` (not 120 s), then the key runs again;
 * - `result-unknown`: the send commits and its answer is lost with it (a record landed
 *   without its answer, stale): the claim protocol itself answers 409 RESULT_UNKNOWN;
 * - `in-flight`: when authentication names the customer, another request (simulated)
 *   claims the key for `holdMs`: the request's own claim answers 409 IN_FLIGHT.
 */
import { randomUUID } from 'node:crypto';
import type { ServerConfig } from '../config.ts';
import type { DataLayer } from '../data/dataLayer.ts';
import { CommitOutcomeUnknown } from '../data/commitGate/index.ts';
import { ContentionExhausted } from '../data/retry/index.ts';
import { idempotencyRecords } from '../domain/idempotency/idempotency.ts';
import { simulatedSend, type SimulatedSend } from './simulatedSend.ts';

/** How long a simulated holder keeps a key: long enough to see a 409, short enough for a test (two Retry-After waits). */
const holdMs = 2_000;

const lostCommit = (why: string) => new CommitOutcomeUnknown(0, `Tidewater-Simulate: ${why}`);

/** `data` with the simulations of this module. */
export function sandboxDataLayer(data: DataLayer, config: ServerConfig): DataLayer {
  const records = idempotencyRecords(data, config);
  // A claim this old is stale `holdMs` from now (idempotency.ts takes a stale claim over).
  const heldAgeMs = Math.max(0, Math.round(config.idempotencyStaleAfterMs) - holdMs);
  const staleAgeMs = Math.round(config.idempotencyStaleAfterMs) + 1_000;

  /**
   * Leaves `send`'s key, when nothing landed under it, as a lost COMMIT whose outcome the look
   * could not learn leaves it: held by a claim that is stale in `holdMs`. A send that claims its
   * key in its own statement (adr/0070) may have left no claim: one is written for it.
   */
  async function holdUnlandedClaim(send: SimulatedSend): Promise<void> {
    await data.write((db) => db.$executeRaw`
      INSERT INTO idempotency_records (id, user_id, key, operation_id, request_hash, status, owner_token, claimed_at)
      VALUES (${randomUUID()}::uuid, ${send.userId ?? ''}::uuid, ${send.key}, ${send.operationId}, ${send.requestHash}, 'Processing', ${randomUUID()}::uuid,
              now() - ${heldAgeMs}::int * interval '1 millisecond')
      ON CONFLICT (user_id, key) DO UPDATE SET claimed_at = EXCLUDED.claimed_at WHERE idempotency_records.landed_at IS NULL`);
  }

  /** The failure of `send`, placed around `run` (the real transaction or statement). */
  async function meet<T>(send: SimulatedSend, run: () => Promise<T>): Promise<T> {
    switch (send.simulation) {
      case 'unavailable-not-applied':
        throw Object.assign(new Error('Tidewater-Simulate: the database refused the connection'), { code: '57P03' });
      case 'busy':
        throw new ContentionExhausted(config.accountWriteAttempts);
      case 'unavailable-unknown-landed':
        await run();
        await holdUnlandedClaim(send);
        throw lostCommit('the COMMIT landed and its answer was lost');
      case 'unavailable-unknown-not-landed':
        // A real COMMIT (of nothing): the request knows a commit started, as after a real lost one.
        await data.runStatementAsCommit((sql) => sql.query`SELECT 1 AS simulated`, { label: 'simulated', verifyCommitted: async () => true, landedAnswer: () => [] });
        await holdUnlandedClaim(send);
        throw lostCommit('a COMMIT was sent and its answer lost; the send was not in it');
      case 'result-unknown': {
        await run();
        // The answer lost with the commit: the record landed, holds no answer and is stale.
        const landed = await data.write((db) => db.$executeRaw`
          UPDATE idempotency_records
          SET status = 'Processing', response_status = NULL, response_body = NULL, completed_at = NULL,
              claimed_at = now() - ${staleAgeMs}::int * interval '1 millisecond'
          WHERE user_id = ${send.userId ?? ''}::uuid AND key = ${send.key} AND landed_at IS NOT NULL`);
        if (landed === 0) {
          // A refusal landed nothing, so no answer of a landed send can be lost: its COMMIT's answer is, as for unavailable-unknown-landed.
          await holdUnlandedClaim(send);
          throw lostCommit('the COMMIT of a refusal was sent and its answer lost');
        }
        await records.claim({ userId: send.userId ?? '', key: send.key, operationId: send.operationId, requestHash: send.requestHash });
        throw new Error('Tidewater-Simulate: the key was claimed again after its answer was removed');
      }
      case 'in-flight':
        return run();
    }
  }

  /** The pending simulation of this request, taken (a request meets its failure once). */
  function take(): SimulatedSend | undefined {
    const send = simulatedSend();
    if (!send?.pending) return undefined;
    send.pending = false;
    return send;
  }

  return {
    ...data,
    runInTransaction(fn, options) {
      const send = take();
      return send ? meet(send, () => data.runInTransaction(fn, options)) : data.runInTransaction(fn, options);
    },
    runStatementAsCommit(fn, options) {
      const send = take();
      return send ? meet(send, () => data.runStatementAsCommit(fn, options)) : data.runStatementAsCommit(fn, options);
    },
    async beginRequest(userId) {
      await data.beginRequest(userId);
      const send = simulatedSend();
      if (!send) return;
      send.userId = userId;
      if (send.simulation !== 'in-flight') return;
      send.pending = false;
      // Another request's claim (its owner token no request holds), stale in holdMs; a key already used keeps its record.
      await data.write((db) => db.$executeRaw`
        INSERT INTO idempotency_records (id, user_id, key, operation_id, request_hash, status, owner_token, claimed_at)
        VALUES (${randomUUID()}::uuid, ${userId}::uuid, ${send.key}, ${send.operationId}, ${send.requestHash}, 'Processing', ${randomUUID()}::uuid,
                now() - ${heldAgeMs}::int * interval '1 millisecond')
        ON CONFLICT (user_id, key) DO NOTHING`);
    },
  };
}
