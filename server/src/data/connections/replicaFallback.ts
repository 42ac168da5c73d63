/**
 * Reads that keep working while the read replica is down (`DATABASE_REPLICA_FALLBACK=1`):
 * a pg pool, handed to `new PrismaPg(pool)` like any other, that takes each connection and
 * sends each query on the replica's pool and, when the replica cannot be reached at all
 * (nothing was sent, so nothing can have happened), on the primary's read-only pool instead,
 * with one warning per outage of the replica. It opens no connection of its own.
 */
import type { Logger } from 'pino';
import pg from 'pg';
import { classify } from '../retry/index.ts';
import { countReplicaFallback } from '../../metrics.ts';

/** True when the replica could not be reached: the statement never got there. */
function replicaUnreachable(error: unknown): boolean {
  const classification = classify(error);
  return classification !== undefined && classification.confirmedNotApplied && ['connection', 'cannotConnectNow', 'tooManyConnections', 'poolTimeout', 'adminShutdown'].includes(classification.kind);
}

/** pg's promise forms, which adapter-pg uses: `pool.query(config)` and `pool.connect()`. */
type Query = (this: pg.Pool, config: unknown, values?: unknown) => Promise<unknown>;

/** A pool that falls back from `replica` to `primary` when the replica is unreachable. */
export class ReplicaFallbackPool extends pg.Pool {
  private warned = false;
  private readonly replica: pg.Pool;
  private readonly primary: pg.Pool;
  private readonly logger: Logger;

  constructor(replica: pg.Pool, primary: pg.Pool, logger: Logger) {
    super({ max: 1 }); // never used: every connection is the replica's or the primary's
    this.replica = replica;
    this.primary = primary;
    this.logger = logger;
  }

  override connect(): never {
    return this.either((pool) => pool.connect()) as never;
  }

  override query(config: unknown, values?: unknown): never {
    return this.either((pool) => (pool.query as unknown as Query).call(pool, config, values)) as never;
  }

  /** The underlying pools are the database's to end. */
  override end(): never {
    return Promise.resolve() as never;
  }

  private either<T>(run: (pool: pg.Pool) => Promise<T>): Promise<T> {
    return run(this.replica).then(
      (result) => {
        if (this.warned) this.logger.info('the read replica answers again; reading from it');
        this.warned = false;
        return result;
      },
      (error: unknown) => {
        if (!replicaUnreachable(error)) throw error;
        countReplicaFallback();
        if (!this.warned) this.logger.warn({ err: error }, 'the read replica cannot be reached; reading from the primary');
        this.warned = true;
        return run(this.primary);
      },
    );
  }
}
