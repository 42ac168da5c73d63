/**
 * The process's last line of defence (adr/0011). An `error` event that no listener takes
 * is thrown, and an uncaught throw ends a Node process: one lost database connection
 * would take every request with it. Every pg client of ours listens for its own errors,
 * so a database error should never get here; if one does (a library's client we do not
 * build), it is logged and counted and the process keeps serving. That is safe for these
 * errors only: pg marks a connection unusable before it emits, so whoever holds it fails
 * through the classifier on its next statement. Anything else uncaught is a bug: logged as
 * fatal, and the process exits as Node would.
 */
import type { Logger } from 'pino';
import { classify } from './data/retry/index.ts';

/** Errors a lost or refused database connection emits. */
const connectionKinds = new Set(['connection', 'adminShutdown', 'cannotConnectNow']);

/** True for an error that says a database connection failed (and nothing else). */
function isDatabaseConnectionError(error: unknown): boolean {
  const kind = classify(error)?.kind;
  return kind !== undefined && connectionKinds.has(kind);
}

/** What the guard has seen. */
export interface ProcessGuard {
  /** Database errors that reached the process with no listener (each one a bug to fix at its source). */
  unexpectedDatabaseErrors(): number;
}

/** Installs the guard on `process` once; `exit` is injectable for tests. */
export function guardProcess(logger: Logger, exit: (code: number) => void = (code) => process.exit(code)): ProcessGuard {
  let caught = 0;
  process.on('uncaughtException', (error, origin) => {
    if (isDatabaseConnectionError(error)) {
      caught += 1;
      logger.error({ err: error, origin, caught }, 'a database connection error reached the process with no listener; serving on');
      return;
    }
    logger.fatal({ err: error, origin }, 'uncaught exception: the process ends');
    exit(1);
  });
  return { unexpectedDatabaseErrors: () => caught };
}
