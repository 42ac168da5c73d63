import type { EventEmitter } from 'node:events';

/**
 * `pool`, listening for its errors: pg-pool's `end()` resolves before its idle clients have
 * closed, and re-emits their errors on the pool, so a test cluster stopped right after it
 * (57P01) would be an uncaught error that fails the whole run (or the bench). For pools a
 * test or the bench ends itself.
 */
export function endedQuietly<Pool extends EventEmitter>(pool: Pool): Pool {
  pool.on('error', () => {});
  return pool;
}
