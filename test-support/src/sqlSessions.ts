/**
 * One database connection's worth of work, driven either through plain `pg` or through
 * `@prisma/adapter-pg` the way Prisma Client drives it, so a test can provoke a failure
 * once and see what each driver throws (`transient.pg.test.ts`).
 */
import { PrismaPg } from '@prisma/adapter-pg';
import type { Transaction } from '@prisma/driver-adapter-utils';
import pg from 'pg';

/** A pool of exactly one connection, so session settings (`SET lock_timeout`) stick. */
export interface Session {
  /** Runs in the open transaction, if any, unless `outsideTransaction` (then it waits for the pool). */
  run(sql: string, outsideTransaction?: boolean): Promise<unknown>;
  /** Takes the connection and sends BEGIN. */
  begin(isolation?: 'SERIALIZABLE'): Promise<void>;
  /** Sends COMMIT and hands the connection back, also when COMMIT fails. */
  commit(): Promise<void>;
  /** Sends ROLLBACK (ignoring its failure) and hands the connection back; nothing without a transaction. */
  rollback(): Promise<void>;
  /** Ends the pool. */
  close(): Promise<void>;
}

/** Where to connect, and how long to wait for a connection (pg's `connectionTimeoutMillis`). */
export interface SessionOptions {
  connectionString: string;
  connectionTimeoutMillis?: number;
}

/** `pg`: pg.Pool; `adapter`: `@prisma/adapter-pg`, whose failures are DriverAdapterErrors. */
export type DriverName = 'pg' | 'adapter';

const ignore = () => undefined;

/** Opens a session through each driver. Nothing connects until the first statement. */
export const sessionDrivers: Record<DriverName, (options: SessionOptions) => Promise<Session>> = {
  async pg(options) {
    const pool = new pg.Pool({ ...options, max: 1 }).on('error', ignore);
    let tx: pg.PoolClient | undefined;
    const end = async (sql: string) => {
      const client = tx;
      tx = undefined;
      await client?.query(sql).finally(() => client.release());
    };
    return {
      run: (sql, outside) => (tx && !outside ? tx.query(sql) : pool.query(sql)),
      begin: async (isolation) => {
        tx = await pool.connect();
        await tx.query(isolation ? `BEGIN ISOLATION LEVEL ${isolation}` : 'BEGIN');
      },
      commit: () => end('COMMIT'),
      rollback: () => end('ROLLBACK').catch(ignore),
      close: () => pool.end(),
    };
  },
  // As Prisma Client drives it: the adapter reports usePhantomQuery: false, so COMMIT is a
  // statement on the transaction, and only then does commit() release the connection.
  async adapter(options) {
    const adapter = await new PrismaPg({ ...options, max: 1 }).connect();
    const query = (sql: string) => ({ sql, args: [], argTypes: [] });
    let tx: Transaction | undefined;
    const end = async (sql: 'COMMIT' | 'ROLLBACK') => {
      const transaction = tx;
      tx = undefined;
      const release = () => (sql === 'COMMIT' ? transaction?.commit() : transaction?.rollback());
      await transaction?.executeRaw(query(sql)).finally(release);
    };
    return {
      run: (sql, outside) => (tx && !outside ? tx : adapter).queryRaw(query(sql)),
      begin: async (isolation) => {
        tx = await adapter.startTransaction(isolation);
      },
      commit: () => end('COMMIT'),
      rollback: () => end('ROLLBACK').catch(ignore),
      close: () => adapter.dispose(),
    };
  },
};
