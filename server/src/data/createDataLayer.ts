/**
 * Builds the DataLayer (dataLayer.ts) over an open database: the one retry policy of the
 * process (PGlite is never retried), what the bank sends through it (gatedSends.ts: reads,
 * writes, transactions, statements that are their own commits), and read replicas with
 * read-your-writes.
 */
import type { Logger } from 'pino';
import type { ServerConfig } from '../config.ts';
import { currentContext } from '../request/requestContext.ts';
import { retryBudget, policyFor, type RetryPolicy } from './retry/index.ts';
import type { DataLayer, ReadConnection } from './dataLayer.ts';
import { type Database, memoryMarks, type ReadYourWritesStore } from './connections/index.ts';
import { countRead, watchRetryBudget } from '../metrics.ts';
import type { PrismaClient } from '../generated/prisma/client.ts';
import { GatedSends } from './gatedSends.ts';

/** What the data layer is built from. */
export interface DataLayerOptions {
  database: Database;
  config: ServerConfig;
  logger: Logger;
  /** Default: the policy for the database's kind, logging each retry at warn. */
  policy?: RetryPolicy;
  /** Default: marks in this process's memory. */
  marks?: ReadYourWritesStore;
}

/** The retry policy of a database (the production one), logging each retry at warn under the request's traceId. */
export function databaseRetryPolicy(database: Database, config: ServerConfig, logger: Logger): RetryPolicy {
  const budget = retryBudget({
    capacity: config.retryBudgetCapacity,
    perSuccess: config.retryBudgetPerSuccess,
    perSecond: config.retryBudgetPerSecond,
  });
  if (database.kind !== 'pglite') watchRetryBudget(budget);
  return policyFor(database.kind, {
    maxRetries: config.dbMaxRetries,
    delayMs: config.dbRetryBaseDelayMs,
    maxDelayMs: config.dbRetryMaxDelayMs,
    budget,
    onRetry: (error, attempt, delayMs, reason) =>
      (currentContext()?.log ?? logger).warn(
        { retry: attempt, delayMs: Math.round(delayMs), code: reason.code, kind: reason.kind, err: error },
        'retrying after a temporary database failure',
      ),
  });
}

/** The DataLayer of one database. */
export function createDataLayer(options: DataLayerOptions): DataLayer {
  const { database, config, logger } = options;
  const { prisma } = database;
  const policy = options.policy ?? databaseRetryPolicy(database, config, logger);
  const marks = options.marks ?? memoryMarks();
  const sends = new GatedSends({ database, config, policy, marks, logger });

  const primaryReads = readsWithRetries(database.primaryReadOnlyPrisma);
  const readOnlyReads = database.hasReplica ? readsWithRetries(database.readOnlyPrisma) : primaryReads;

  /**
   * The read side's client, each of its operations under the retry policy as a read (safe to
   * rerun on a dropped connection): a query extension, Prisma Client's public way to wrap
   * every operation. Its type is the client's own: the extension adds no method.
   */
  function readsWithRetries(client: PrismaClient): PrismaClient {
    return client.$extends({
      query: { $allOperations: ({ args, query }) => sends.read(() => query(args)) },
    }) as unknown as PrismaClient;
  }

  /**
   * Read-only in every case: the primary's read-only side for a request that wrote or a
   * user with a fresh mark (and wherever there is no replica), else the replica.
   */
  function readConnection(): ReadConnection {
    const context = currentContext();
    const hasWrites = context?.hasWrites === true;
    const fresh = hasWrites || (context?.readFromPrimaryUntil ?? 0) > Date.now();
    countRead(database.hasReplica && !fresh ? 'replica' : 'primary', !database.hasReplica ? 'no_replica' : hasWrites ? 'request_wrote' : fresh ? 'read_your_writes' : 'replica');
    if (!database.hasReplica || fresh) return { client: primaryReads, isReadOnly: true, isReadReplica: false, hasWrites };
    return { client: readOnlyReads, isReadOnly: true, isReadReplica: true, hasWrites };
  }

  return {
    kind: database.kind,
    db: prisma,
    readDb: () => readConnection().client,
    readConnection,
    runInTransaction: (fn, transactionOptions) => sends.transaction(fn, transactionOptions),
    runStatementAsCommit: (fn, statementOptions) => sends.statementAsCommit(fn, statementOptions),
    read: (fn) => sends.readOnPrimary(() => fn(prisma)),
    write: (fn) => sends.write(() => fn(prisma)),
    writesFor(userId) {
      const context = currentContext();
      if (context) context.userId = userId;
    },
    async beginRequest(userId) {
      const context = currentContext();
      if (!context) return;
      context.userId = userId;
      if (!database.hasReplica) return;
      context.readFromPrimaryUntil = await marks.primaryUntil(userId).catch(() => Date.now() + config.readYourWritesMs);
    },
  };
}
