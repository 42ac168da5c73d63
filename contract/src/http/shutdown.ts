/**
 * How both servers stop on SIGINT/SIGTERM: stop accepting, close idle keep-alive
 * connections, let the requests in flight finish, close what the process holds (the
 * database, the session store), then exit 0; a process that cannot finish within 5 s exits
 * anyway.
 */
import type { Server } from 'node:http';

/** The part of a logger this needs (pino's). */
interface InfoLogger {
  info(fields: object, message: string): void;
}

/** Installs the SIGINT/SIGTERM handlers; `closeResources` runs once the server has closed. */
export function stopOnSignals(server: Server, logger: InfoLogger, closeResources: () => Promise<unknown>): void {
  const stop = (signal: string) => {
    logger.info({ signal }, 'shutting down');
    server.close(() => void closeResources().finally(() => process.exit(0)));
    server.closeIdleConnections();
    setTimeout(() => process.exit(0), 5_000).unref();
  };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
}
