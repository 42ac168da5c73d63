/**
 * A scripted stand-in for the API, in the test process, for what the real one cannot be
 * made to do on cue: a refresh that answers 503 or 401 or takes 3 s, a request whose
 * socket we watch close. Sign-in (`/api/auth/token`) and `/api/me` work by default; every
 * request is recorded with when it started and when its connection closed.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** One request the fake received. */
interface FakeRequest {
  method: string;
  path: string;
  headers: IncomingMessage['headers'];
  body: string;
  /** Set when the request's connection closed before the fake answered it. */
  closedEarlyAt?: number;
  receivedAt: number;
}

/** A route handler: answer with `res`, or never (a hung API). */
type FakeHandler = (req: FakeRequest, res: ServerResponse) => void | Promise<void>;

/** The running fake. */
export interface FakeApi {
  readonly url: string;
  readonly requests: FakeRequest[];
  /** Replaces (or adds) the handler of `METHOD /path`. */
  on(route: string, handler: FakeHandler): void;
  /** How many requests `METHOD /path` received. */
  count(route: string): number;
  stop(): Promise<void>;
}

let tokenSerial = 0;

/** A fresh token pair in the API's shape; `expiresIn` seconds. */
export function fakeTokenPair(expiresIn = 900) {
  tokenSerial += 1;
  return {
    accessToken: `fake-access-${tokenSerial}-${Date.now()}`,
    refreshToken: `fake-refresh-${tokenSerial}-${Date.now()}`,
    tokenType: 'Bearer',
    expiresIn,
    refreshExpiresIn: 2_592_000,
  };
}

/** The user every fake sign-in belongs to. */
export const fakeUser = {
  id: '3f1c2a9e-6b7d-4c1e-9a3b-2f5e8d7c6b1a',
  email: 'ada@example.com',
  displayName: 'Ada Lovelace',
  handle: 'ada_l',
  primaryAccountId: null,
  createdAt: '2026-11-29T10:00:00.000Z',
};

/** Writes JSON. */
export function sendJson(
  res: ServerResponse,
  status: number,
  body: unknown,
  type = 'application/json',
): void {
  res.writeHead(status, { 'content-type': type });
  res.end(JSON.stringify(body));
}

/** Starts the fake on a free port. */
export async function startFakeApi(accessTokenSeconds = 900): Promise<FakeApi> {
  const requests: FakeRequest[] = [];
  const handlers = new Map<string, FakeHandler>([
    ['POST /api/auth/token', (_req, res) => sendJson(res, 200, fakeTokenPair(accessTokenSeconds))],
    ['POST /api/auth/refresh', (_req, res) => sendJson(res, 200, fakeTokenPair(accessTokenSeconds))],
    ['POST /api/auth/revoke', (_req, res) => void res.writeHead(204).end()],
    ['GET /api/me', (_req, res) => sendJson(res, 200, fakeUser)],
    ['GET /api/ready', (_req, res) => sendJson(res, 200, { status: 'ready' })],
    ['GET /api/accounts', (_req, res) => sendJson(res, 200, { items: [] })],
  ]);
  const server = createServer((incoming: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    incoming.on('data', (chunk: Buffer) => chunks.push(chunk));
    incoming.on('end', () => {
      const path = (incoming.url ?? '/').split('?')[0] ?? '/';
      const recorded: FakeRequest = {
        method: incoming.method ?? 'GET',
        path,
        headers: incoming.headers,
        body: Buffer.concat(chunks).toString('utf8'),
        receivedAt: Date.now(),
      };
      requests.push(recorded);
      res.on('close', () => {
        if (!res.writableFinished) recorded.closedEarlyAt = Date.now();
      });
      const handler = handlers.get(`${recorded.method} ${path}`);
      if (handler) void handler(recorded, res);
      else sendJson(res, 404, { title: 'Not found', status: 404 }, 'application/problem+json');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    on: (route, handler) => void handlers.set(route, handler),
    count: (route) => requests.filter((r) => `${r.method} ${r.path}` === route).length,
    stop: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
