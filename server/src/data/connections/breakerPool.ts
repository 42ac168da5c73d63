/**
 * A pg pool that logs in only while its server's circuit breaker is closed
 * (circuitBreaker.ts, adr/0011). Asked for a connection while the breaker is open or
 * half-open, it fails at once with `DatabaseUnavailable` (nothing was sent) instead of
 * trying a login; a login of its own that fails because the server cannot be reached opens
 * the breaker, and the failure reaches the caller as `DatabaseUnavailable` too (a refused
 * or cut login sent nothing, whatever pg's message). Either way the current attempt is
 * told which breaker it met, so the retry layer can wait for it to close instead of
 * retrying into a server that is down.
 */
import type pg from 'pg';
import { CancellablePool, type CancellablePoolConfig, lostPrimary } from '../commitGate/index.ts';
import { DatabaseUnavailable, noteBreakerMet, type CircuitBreaker } from './circuitBreaker.ts';

type ConnectCallback = (error: Error | undefined, client: pg.PoolClient | undefined, done: (release?: unknown) => void) => void;

/** pg-pool's release of a checked-out connection (internal, but what every release form calls: `client.release`, pool.query's own). */
type PoolRelease = (this: pg.Pool, client: pg.PoolClient, idleListener: unknown, error?: unknown) => void;
const poolRelease = (Object.getPrototypeOf(CancellablePool.prototype) as { _release?: PoolRelease })._release;
if (typeof poolRelease !== 'function') throw new Error('pg-pool has no _release: the breaker pool cannot keep a lost primary\'s connections out (adr/0019)');

/** A CancellablePool behind a circuit breaker. */
export class BreakerPool extends CancellablePool {
  readonly breaker: CircuitBreaker;
  constructor(config: CancellablePoolConfig, breaker: CircuitBreaker) {
    super(config);
    this.breaker = breaker;
  }

  /**
   * What a failed `connect()` answers: the breaker's refusal when the failure says the
   * server cannot be reached, or when the breaker opened meanwhile (a pool wait spent behind
   * logins to a hung server is the outage's, not a busy pool's).
   */
  private failure(error: Error): Error {
    if (!this.breaker.noteLoginFailure(error) && this.breaker.state === 'closed') return error;
    noteBreakerMet(this.breaker);
    return new DatabaseUnavailable(this.breaker.name, { cause: error });
  }

  // pg's connect() has a promise form and a callback form (pool.query uses the latter).
  override connect(callback?: ConnectCallback): never {
    if (this.breaker.state !== 'closed') {
      noteBreakerMet(this.breaker);
      const refused = new DatabaseUnavailable(this.breaker.name, { cause: this.breaker.openedBy });
      if (!callback) return Promise.reject(refused) as never;
      process.nextTick(() => callback(refused, undefined, () => {}));
      return undefined as never;
    }
    const connect = super.connect as (this: BreakerPool, callback?: ConnectCallback) => Promise<pg.PoolClient> | undefined;
    if (!callback) return connect.call(this)!.catch((error: Error) => Promise.reject(this.failure(error))) as never;
    return connect.call(this, (error, client, done) => callback(error && this.failure(error), client, done)) as never;
  }

  /**
   * A checked-out connection whose server refused a read-write statement with 25006 is not
   * given back to the pool (adr/0019): its release discards it, so the transaction's rerun
   * logs in afresh (on a host list, to the host a new probe finds). Here, in pg-pool's one
   * release path, so it holds however the connection was taken (promise, callback,
   * pool.query) and costs no wrapper per checkout (adr/0030).
   */
  _release(client: pg.PoolClient, idleListener: unknown, error?: unknown): void {
    const lost = !error && (client as unknown as { [lostPrimary]?: boolean })[lostPrimary] === true;
    poolRelease!.call(this, client, idleListener, lost ? new Error('the server is not the primary any more') : error);
  }
}
