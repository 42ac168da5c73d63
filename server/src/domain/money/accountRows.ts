/**
 * What a statement outside the money sends (an account's rename, close or new primary)
 * needs to bound its lock waits like the money sends do: each lock wait bounded by
 * `lock_timeout` (ACCOUNT_LOCK_WAIT_MS); a lost wait (55P03) is the data layer's
 * contention, rerun up to ACCOUNT_WRITE_ATTEMPTS times, then busy.
 */
import type { Tx } from '../../data/dataLayer.ts';

/** Bounds every lock wait of the current transaction (SET LOCAL lock_timeout). */
export async function limitLockWaits(tx: Tx, lockWaitMs: number): Promise<void> {
  await tx.$queryRaw`SELECT set_config('lock_timeout', ${lockWait(lockWaitMs)}, true)`;
}

/** `lock_timeout` as set_config takes it. */
export const lockWait = (lockWaitMs: number) => `${Math.max(1, Math.round(lockWaitMs))}ms`;
