/**
 * Runs code as if inside one API request: a request context with its own deadline (armed
 * when `deadlineMs` is given) and a logger that keeps its lines, so data-layer tests can
 * exercise the deadline, the commit gate and read-your-writes without HTTP.
 */
import { randomUUID } from 'node:crypto';
import { pino, type Logger } from 'pino';
import { runWithContext, type RequestContext } from '../../src/request/requestContext.ts';
import { RequestDeadline } from '../../src/request/requestDeadline.ts';

/** A logger whose JSON lines are kept in `lines`. */
export function memoryLogger(): { logger: Logger; lines: Array<Record<string, unknown>> } {
  const lines: Array<Record<string, unknown>> = [];
  const logger = pino({ level: 'debug' }, { write: (line: string) => void lines.push(JSON.parse(line)) });
  return { logger, lines };
}

/** Runs `fn` in a fresh request context; answers fn's result and the context. */
export async function inRequest<T>(
  fn: (context: RequestContext) => Promise<T>,
  options: { deadlineMs?: number; userId?: string; logger?: Logger } = {},
): Promise<T> {
  const deadline = new RequestDeadline();
  if (options.deadlineMs !== undefined) deadline.arm(options.deadlineMs);
  const context: RequestContext = {
    traceId: randomUUID(),
    log: options.logger ?? pino({ level: 'silent' }),
    signal: deadline.signal,
    deadline,
    ...(options.userId ? { userId: options.userId } : {}),
  };
  try {
    return await runWithContext(context, () => fn(context));
  } finally {
    deadline.dispose();
  }
}
