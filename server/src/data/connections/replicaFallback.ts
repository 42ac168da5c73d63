/**
 * Reads that keep working while the read replica is down (`DATABASE_REPLICA_FALLBACK=1`):
 * a driver adapter that sends each read to the replica and, when the replica cannot be
 * reached at all (nothing was sent, so nothing can have happened), to the primary's
 * read-only connections instead, with one warning per outage of the replica.
 */
import type { Logger } from 'pino';
import type { SqlDriverAdapter, SqlDriverAdapterFactory } from '@prisma/driver-adapter-utils';
import { classify } from '../retry/index.ts';
import { countReplicaFallback } from '../../metrics.ts';

/** True when the replica could not be reached: the statement never got there. */
function replicaUnreachable(error: unknown): boolean {
  const classification = classify(error);
  return classification !== undefined && classification.confirmedNotApplied && ['connection', 'cannotConnectNow', 'tooManyConnections', 'poolTimeout', 'adminShutdown'].includes(classification.kind);
}

/** An adapter factory that falls back from `replica` to `primary` when the replica is unreachable. */
export function withReplicaFallback(replica: SqlDriverAdapterFactory, primary: SqlDriverAdapterFactory, logger: Logger): SqlDriverAdapterFactory {
  let warned = false;
  const fallingBack = (error: unknown) => {
    countReplicaFallback();
    if (!warned) logger.warn({ err: error }, 'the read replica cannot be reached; reading from the primary');
    warned = true;
  };
  const recovered = () => {
    if (warned) logger.info('the read replica answers again; reading from it');
    warned = false;
  };

  return {
    provider: replica.provider,
    adapterName: replica.adapterName,
    async connect() {
      const [toReplica, toPrimary] = await Promise.all([replica.connect(), primary.connect()]);
      const either = <T>(run: (adapter: SqlDriverAdapter) => Promise<T>): Promise<T> =>
        run(toReplica).then(
          (result) => {
            recovered();
            return result;
          },
          (error: unknown) => {
            if (!replicaUnreachable(error)) throw error;
            fallingBack(error);
            return run(toPrimary);
          },
        );
      return {
        provider: toReplica.provider,
        adapterName: toReplica.adapterName,
        queryRaw: (query) => either((adapter) => adapter.queryRaw(query)),
        executeRaw: (query) => either((adapter) => adapter.executeRaw(query)),
        executeScript: (script) => either((adapter) => adapter.executeScript(script)),
        startTransaction: (isolationLevel) => either((adapter) => adapter.startTransaction(isolationLevel)),
        getConnectionInfo: toReplica.getConnectionInfo?.bind(toReplica),
        dispose: async () => {
          await Promise.all([toReplica.dispose(), toPrimary.dispose()]);
        },
      };
    },
  };
}
