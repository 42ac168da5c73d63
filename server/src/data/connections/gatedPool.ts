/**
 * A pg pool that logs in only while its server's readiness gate is open (readinessGate.ts,
 * adr/0011). Asked for a connection while the gate is closed, it fails at once with
 * `DatabaseUnavailable` (nothing was sent) instead of trying a login; a login of its own
 * that fails because the server cannot be reached closes the gate, and the failure reaches
 * the caller as `DatabaseUnavailable` too (a refused or cut login sent nothing, whatever
 * pg's message). Either way the current attempt is told which gate it met, so the retry
 * layer can wait for that gate instead of retrying into a server that is down.
 */
import type pg from 'pg';
import { CancellablePool, type CancellablePoolConfig, lostPrimary } from '../commitGate/index.ts';
import { DatabaseUnavailable, noteGateMet, type ReadinessGate } from './readinessGate.ts';

type ConnectCallback = (error: Error | undefined, client: pg.PoolClient | undefined, done: (release?: unknown) => void) => void;

/** pg-pool's release of a checked-out connection (internal, but what every release form calls: `client.release`, pool.query's own). */
type PoolRelease = (this: pg.Pool, client: pg.PoolClient, idleListener: unknown, error?: unknown) => void;
const poolRelease = (Object.getPrototypeOf(CancellablePool.prototype) as { _release?: PoolRelease })._release;
if (typeof poolRelease !== 'function') throw new Error('pg-pool has no _release: the gated pool cannot keep a lost primary\'s connections out (adr/0019)');

/** A CancellablePool behind a readiness gate. */
export class GatedPool extends CancellablePool {
  readonly gate: ReadinessGate;
  constructor(config: CancellablePoolConfig, gate: ReadinessGate) {
    super(config);
    this.gate = gate;
  }

  /**
   * What a failed `connect()` answers: the gate's refusal when the failure says the server
   * cannot be reached, or when the gate closed meanwhile (a pool wait spent behind logins
   * to a hung server is the outage's, not a busy pool's).
   */
  private failure(error: Error): Error {
    if (!this.gate.noteLoginFailure(error) && this.gate.isOpen) return error;
    noteGateMet(this.gate);
    return new DatabaseUnavailable(this.gate.name, { cause: error });
  }

  // pg's connect() has a promise form and a callback form (pool.query uses the latter).
  override connect(callback?: ConnectCallback): never {
    if (!this.gate.isOpen) {
      noteGateMet(this.gate);
      const refused = new DatabaseUnavailable(this.gate.name, { cause: this.gate.closedBy });
      if (!callback) return Promise.reject(refused) as never;
      process.nextTick(() => callback(refused, undefined, () => {}));
      return undefined as never;
    }
    const connect = super.connect as (this: GatedPool, callback?: ConnectCallback) => Promise<pg.PoolClient> | undefined;
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
