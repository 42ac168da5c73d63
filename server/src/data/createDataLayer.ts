/**
 * Builds the DataLayer (dataLayer.ts) over an open database: the one retry policy of the
 * process (PGlite is never retried), whole-transaction reruns, safe single statements,
 * read replicas with read-your-writes. Transactions get the config's pool wait and
 * deadline as Prisma's `maxWait` and `timeout` (never Prisma's own 2 s / 5 s by accident).
 */
import type { Logger } from 'pino';
import type { ServerConfig } from '../config.ts';
import { currentContext } from '../request/requestContext.ts';
import { retryBudget, policyFor, type RetryPolicy, type RetryReason, classify, onReadWritePath } from './retry/index.ts';
import type { DataLayer, ReadConnection, StatementCommitOptions, TransactionOptions, Tx } from './dataLayer.ts';
import { type Database, memoryMarks, type ReadYourWritesStore, watchBreakers, type CircuitBreaker } from './connections/index.ts';
import { countRead, watchRetryBudget } from '../metrics.ts';
import { committingStatement, type Statements } from './statements.ts';
import type { PrismaClient } from '../generated/prisma/client.ts';
import { transactWith } from './transact.ts';

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
  const signal = () => currentContext()?.signal;

  /**
   * Runs `fn` under the retry policy with the circuit breaker's wait: an attempt that met
   * an open circuit breaker waits for it to close (until the request's deadline) and runs
   * again, spending no retry. Outside a request nothing bounds such a wait, so there the
   * failure is an ordinary one.
   */
  function execute<T>(fn: () => Promise<T>, isSafeToRetry?: (reason: RetryReason) => boolean): Promise<T> {
    const requestSignal = signal();
    let breakerMet: CircuitBreaker | undefined;
    return policy.execute(
      async () => {
        const watched = watchBreakers(fn);
        try {
          return await watched.result;
        } finally {
          breakerMet = watched.openBreakerMet();
        }
      },
      {
        signal: requestSignal,
        isSafeToRetry,
        waitForDatabase(wait) {
          const breaker = breakerMet;
          breakerMet = undefined;
          if (!requestSignal || !breaker) return undefined;
          // The request's cause is what opened the circuit breaker, not the breaker's own refusal.
          (currentContext()?.log ?? logger).warn({ breakerWait: wait, breaker: breaker.name, code: classify(breaker.openedBy)?.code, err: breaker.openedBy }, 'waiting for the database to answer again');
          return breaker.whenClosed(requestSignal);
        },
      },
    );
  }

  /**
   * Runs `work`; when the request's signal fired meanwhile, its reason (deadline, hang-up)
   * is the outcome, however the driver or Prisma wrapped the refusal or the cancel.
   */
  async function underSignal<T>(work: () => Promise<T>): Promise<T> {
    try {
      return await work();
    } catch (error) {
      const fired = signal();
      if (fired?.aborted && !currentContext()?.deadline.isDisarmed) throw fired.reason;
      throw error;
    }
  }

  /**
   * Runs `work` on the primary's read-write connections: a 25006 there means the server is
   * not the primary any more (adr/0019), a transient `NotPrimary`, not a bug.
   */
  async function onPrimary<T>(work: () => Promise<T>): Promise<T> {
    try {
      return await work();
    } catch (error) {
      throw onReadWritePath(error);
    }
  }

  /** This request wrote: its later reads, and its user's for a while, go to the primary. */
  function noteWrite(): void {
    const context = currentContext();
    if (!context) return;
    context.hasWrites = true;
    // Marks only route reads to a replica: without one every read is the primary's already (and a database mark would cost a write).
    if (context.userId && config.readYourWritesMs > 0 && database.hasReplica) {
      marks.markWrite(context.userId, Date.now() + config.readYourWritesMs).catch((error: unknown) =>
        context.log.warn({ err: error }, 'could not record a read-your-writes mark'),
      );
    }
  }

  const transact = transactWith({ execute, underSignal, noteWrite, logger, behindPooler: config.dbSessionSettings === 'role' });

  /** Prisma's interactive transaction: `fn`'s statements are its client's (`tx.$queryRaw`, `tx.$executeRaw`). */
  function runInTransaction<T>(fn: (tx: Tx) => Promise<T>, transactionOptions: TransactionOptions = {}): Promise<T> {
    const { isolationLevel } = transactionOptions;
    const options = { maxWait: config.dbPoolWaitMs, timeout: config.requestDeadlineMs, ...(isolationLevel ? { isolationLevel } : {}) };
    const { transactionGate } = database;
    return transact(
      (answered) =>
        transactionGate
          ? transactionGate.run((beforeCommit) =>
              prisma.$transaction(async (tx) => {
                const value = await fn(tx);
                beforeCommit();
                return answered(value);
              }, options),
            )
          : prisma.$transaction(async (tx) => answered(await fn(tx)), options),
      transactionOptions,
    );
  }

  /**
   * One direct statement that is its own commit (adr/0027): the commit gate sends it alone
   * on a connection it took, so no BEGIN and no COMMIT round trip. The pool's
   * `connectionTimeoutMillis` bounds the wait for that connection, and the commit timeout
   * the statement.
   */
  function runStatementAsCommit<T>(fn: (sql: Statements) => Promise<T>, options: StatementCommitOptions<T>): Promise<T> {
    // No answer to keep for a look: the statement is the commit, so a lost commit is a lost answer (`landedAnswer` reads it back).
    return transact(() => fn(committingStatement(database.sendOwnCommit)), options, options.landedAnswer);
  }

  const primaryReads = readsWithRetries(database.primaryReadOnlyPrisma);
  const readOnlyReads = database.hasReplica ? readsWithRetries(database.readOnlyPrisma) : primaryReads;

  /**
   * The read side's client, each of its operations under the retry policy as a read (safe to
   * rerun on a dropped connection): a query extension, Prisma Client's public way to wrap
   * every operation. Its type is the client's own: the extension adds no method.
   */
  function readsWithRetries(client: PrismaClient): PrismaClient {
    return client.$extends({
      query: { $allOperations: ({ args, query }) => execute(() => underSignal(() => query(args)), () => true) },
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
    runInTransaction,
    runStatementAsCommit,
    read: (fn) => execute(() => onPrimary(() => underSignal(() => fn(prisma))), () => true),
    async write(fn) {
      const result = await execute(() => onPrimary(() => underSignal(() => fn(prisma))));
      noteWrite();
      return result;
    },
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
