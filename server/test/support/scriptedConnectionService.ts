/**
 * What the connection source's tests share (server/src/data/connectionSource/): a real HTTP
 * service on 127.0.0.1 that plays scripted replies, a logger that keeps its JSON lines, and
 * the options of a source pointed at that service.
 */
import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { pino } from 'pino';
import { onTestFinished } from 'vitest';
import type { createConnectionSource } from '../../src/data/connectionSource/index.ts';

/** The source's options, named through the family's index as every importer outside it must. */
type ConnectionSourceOptions = Parameters<typeof createConnectionSource>[0];

/** Both contain SECRET so one search proves neither reached a log line. */
export const TOKEN = 'tok-SECRET-7f3a';
export const CONNECTION_STRING = 'postgres://app:pw-SECRET-91@db:5432/bank';
export const NAME = 'ledger-primary';
export const BACKOFF_MS = [20, 30, 50];

/** One reply of the service. */
export type Reply =
  | { status: number; body?: string; headers?: Record<string, string>; delayMs?: number }
  | 'reset' // the server destroys the socket without answering
  | 'hang'; // the server never answers

/**
 * A real HTTP service on 127.0.0.1 that plays `replies` in order (the last one repeats) and
 * counts requests. Call it inside a test: the service closes when that test finishes.
 */
export async function startService(replies: Reply[]) {
  const requests: Array<{ url: string | undefined; headers: IncomingHttpHeaders }> = [];
  const server = createServer((req, res) => {
    const reply = replies[Math.min(requests.length, replies.length - 1)];
    requests.push({ url: req.url, headers: req.headers });
    if (reply === undefined || reply === 'hang') return;
    if (reply === 'reset') {
      req.socket.destroy();
      return;
    }
    setTimeout(() => {
      res.writeHead(reply.status, { 'content-type': 'text/plain', ...reply.headers });
      res.end(reply.body ?? '');
    }, reply.delayMs ?? 0);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const service = {
    url: `http://127.0.0.1:${port}`,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
  onTestFinished(() => service.close());
  return service;
}

/** A pino logger writing JSON lines into memory, as production would write them. */
export function captureLog() {
  const lines: string[] = [];
  const logger = pino({ level: 'info' }, { write: (line: string) => void lines.push(line) });
  const entries = () => lines.map((line) => JSON.parse(line) as Record<string, unknown>);
  return { logger, lines, entries, warnings: () => entries().filter((entry) => entry.level === 40) };
}

/** A source's options for the service at `url`: four attempts, BACKOFF_MS between them, 1 s each. */
export function optionsFor(
  url: string,
  logger: ConnectionSourceOptions['logger'],
  overrides: Partial<ConnectionSourceOptions> = {},
) {
  return {
    apiUrl: url,
    connectionName: NAME,
    token: TOKEN,
    attempts: 4,
    backoffMs: BACKOFF_MS,
    attemptTimeoutMs: 1_000,
    logger,
    ...overrides,
  } satisfies ConnectionSourceOptions;
}

/** A 200 answering `body`. */
export const ok = (body: string): Reply => ({ status: 200, body });
/** A reply with status `code` and `body`. */
export const status = (code: number, body = ''): Reply => ({ status: code, body });
