/**
 * The commit gate in the pool's client (adr/0006, adr/0075): Prisma's adapter-pg ends a
 * transaction by sending the text `COMMIT` (or `ROLLBACK`) through the connection's public
 * `query`, and only then releases the connection (`usePhantomQuery: false`, Prisma 7). So
 * the client sees each COMMIT before it leaves and gates it there, in one synchronous step:
 *
 * - refused when the request's signal fired: a `ROLLBACK` goes instead (Prisma releases the
 *   connection after a failed COMMIT without one), and the COMMIT answers the signal's reason;
 * - else the deadline is disarmed, so nothing cancels a commit that started, and the
 *   COMMIT's outcome is one `Commit` (request/commitOutcome.ts, adr/0052) that the attempt and
 *   the request read; a COMMIT that fails re-arms the deadline at its original instant.
 *
 * COMMIT and ROLLBACK are bounded by the commit timeout (past it a COMMIT's outcome is
 * unknown); a connection whose COMMIT or ROLLBACK timed out goes back to the pool only when
 * that statement finally settles (discarded unless it answered), never handed to another
 * request mid-statement.
 */
import type pg from 'pg';
import type { RequestContext } from '../../request/requestContext.ts';
import { attemptCommit, CommitOutcomeUnknown } from '../../request/commitOutcome.ts';
import { countCommitGateDisarm, countCommitGateRefusal } from '../../metrics.ts';
import type { CommitGateOptions } from './commitGateOptions.ts';

/** Sends one statement on the client, ungated (pg's own `query`, promise form). */
type Send = (config: unknown, values?: unknown) => Promise<unknown>;

/** The client as the gate holds it: its backend and, while a pool lent it, the pool's `release`. */
export type GatedConnection = Pick<pg.PoolClient, 'release'> & { readonly processID: number | null };

/** Sends the COMMIT `config` on `client` through the gate, as described above. */
export async function commitThroughGate(client: GatedConnection, send: Send, config: unknown, values: unknown, context: RequestContext | undefined, gate: CommitGateOptions): Promise<unknown> {
  if (context && !context.deadline.disarmForCommit()) {
    countCommitGateRefusal('commit');
    await endUnsent(client, send, gate);
    throw context.signal.reason;
  }
  if (context) countCommitGateDisarm();
  const commit = attemptCommit();
  try {
    if (gate.beforeCommitSent) await gate.beforeCommitSent();
  } catch (error) {
    // Failed before COMMIT was sent (an injected fault): nothing moved; end the transaction here.
    context?.deadline.rearmAfterFailedCommit();
    await endUnsent(client, send, gate);
    throw error;
  }
  commit.send(context);
  if (client.processID !== null) commit.sentTo(client.processID);
  const sent = send(config, values);
  // The commit learns the real outcome whenever it comes, within the bound or after it.
  sent.then(
    () => commit.answered(),
    () => commit.failed(),
  );
  try {
    return await bounded(client, sent, gate.commitTimeoutMs);
  } catch (error) {
    // No answer within the bound: in doubt, and the COMMIT still runs (a no-op once it failed).
    commit.timedOut();
    context?.deadline.rearmAfterFailedCommit();
    throw error;
  }
}

/** Sends ROLLBACK on `client`, bounded by the commit timeout like a COMMIT. */
export function rollbackThroughGate(client: GatedConnection, send: Send, config: unknown, values: unknown, gate: CommitGateOptions): Promise<unknown> {
  return bounded(client, send(config, values), gate.commitTimeoutMs);
}

/** Ends a transaction whose COMMIT was never sent; a failure to is the connection's end, which the holder meets next. */
function endUnsent(client: GatedConnection, send: Send, gate: CommitGateOptions): Promise<unknown> {
  return rollbackThroughGate(client, send, 'ROLLBACK', undefined, gate).catch(() => {});
}

/**
 * `work` (a COMMIT or ROLLBACK on `client`), failing with `CommitOutcomeUnknown` after `ms`.
 * Past that bound the client's `release` waits for `work` to settle: the pool then takes the
 * connection back (discarding it unless `work` answered), never while it still runs.
 */
function bounded<T>(client: GatedConnection, work: Promise<T>, ms: number): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const timer = setTimeout(() => {
      holdUntilSettled(client, work);
      reject(new CommitOutcomeUnknown(ms));
    }, ms);
    work.then(
      (value) => {
        clearTimeout(timer);
        resolve(value);
      },
      (error: unknown) => {
        clearTimeout(timer);
        reject(error);
      },
    );
  });
}

/** Until `work` settles, the pool's `release` of this loan (pg-pool's `client.release`) waits for it. */
function holdUntilSettled(client: GatedConnection, work: Promise<unknown>): void {
  const release = client.release;
  if (typeof release !== 'function') return; // not lent by a pool
  client.release = (error?: Error | boolean) => {
    work.then(
      () => release(error),
      (failure: unknown) => release(failure instanceof Error ? failure : new Error(String(failure))),
    );
  };
}
