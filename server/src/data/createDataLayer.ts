/**
 * Builds the DataLayer (dataLayer.ts) over an open database: transactions get the
 * config's pool wait and deadline as Prisma's `maxWait` and `timeout` (never Prisma's
 * own 2 s / 5 s defaults by accident).
 */
import type { Logger } from 'pino';
import type { ServerConfig } from '../config.ts';
import { ContentionExhausted } from './contentionExhausted.ts';
import type { DataLayer } from './dataLayer.ts';
import type { Database } from './database.ts';
import { classify } from './transient.ts';

/** The DataLayer of one database. */
export function createDataLayer(options: { database: Database; config: ServerConfig; logger: Logger }): DataLayer {
  const { database, config } = options;
  const { prisma } = database;
  return {
    kind: database.kind,
    db: prisma,
    readDb: () => prisma,
    async runInTransaction(fn, transactionOptions = {}) {
      const attempts = transactionOptions.contentionAttempts ?? 1;
      for (let attempt = 1; ; attempt++) {
        try {
          return await prisma.$transaction(fn, {
            maxWait: config.dbPoolWaitMs,
            timeout: config.requestDeadlineMs,
            ...(transactionOptions.isolationLevel ? { isolationLevel: transactionOptions.isolationLevel } : {}),
          });
        } catch (error) {
          const lostLock = transactionOptions.contentionAttempts !== undefined && classify(error)?.kind === 'lockNotAvailable';
          if (!lostLock) throw error;
          if (attempt >= attempts) throw new ContentionExhausted(attempts, { cause: error });
        }
      }
    },
    read: (fn) => fn(prisma),
    write: (fn) => fn(prisma),
  };
}
