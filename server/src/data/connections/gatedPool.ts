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

/** A CancellablePool behind a readiness gate. */
export class GatedPool extends CancellablePool {
  constructor(config: CancellablePoolConfig, readonly gate: ReadinessGate) {
    super(config);
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
  override connect(...args: unknown[]): never {
    const callback = args[0] as ConnectCallback | undefined;
    if (!this.gate.isOpen) {
      noteGateMet(this.gate);
      const refused = new DatabaseUnavailable(this.gate.name);
      if (!callback) return Promise.reject(refused) as never;
      process.nextTick(() => callback(refused, undefined, () => {}));
      return undefined as never;
    }
    const connect = super.connect as (this: GatedPool, callback?: ConnectCallback) => Promise<pg.PoolClient> | undefined;
    if (!callback) return connect.call(this)!.then(discardingLostPrimary, (error: Error) => Promise.reject(this.failure(error))) as never;
    return connect.call(this, (error, client, done) => callback(error && this.failure(error), client, done)) as never;
  }
}

/**
 * A checked-out connection whose server refused a read-write statement with 25006 is not
 * given back to the pool (adr/0019): its release discards it, so the transaction's rerun
 * logs in afresh (on a host list, to the host a new probe finds). pool.query's own
 * release already passes the query's error.
 */
function discardingLostPrimary(client: pg.PoolClient): pg.PoolClient {
  const release = client.release.bind(client);
  client.release = (error?: Error | boolean) =>
    release(error ?? ((client as unknown as { [lostPrimary]?: boolean })[lostPrimary] ? new Error('the server is not the primary any more') : undefined));
  return client;
}
