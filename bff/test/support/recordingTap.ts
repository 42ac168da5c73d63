/**
 * A transparent tap between the BFF and the API for tests: forwards every request as it
 * is and records what the API answered (status, headers, body bytes) and the headers the
 * BFF sent, so a test can compare what the browser got with what the API sent, whatever
 * the API answers today. A test can also hold one route's requests (an API slow to answer
 * them) until it releases them.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { request } from 'undici';

/** One answer the API gave. */
interface TappedAnswer {
  method: string;
  path: string;
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: Buffer;
  /** What the BFF sent (but host and the connection's own headers). */
  requestHeaders: Record<string, string | string[] | undefined>;
}

/** The running tap. */
export interface RecordingTap {
  readonly url: string;
  readonly answers: TappedAnswer[];
  /** Holds every request to `route` (`'POST /api/auth/refresh'`) from now until the returned function is called. */
  hold(route: string): () => void;
  stop(): Promise<void>;
}

/** Starts a tap in front of `target`. */
export async function startRecordingTap(target: string): Promise<RecordingTap> {
  const answers: TappedAnswer[] = [];
  const holds = new Map<string, Promise<void>>();
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const headers = Object.fromEntries(
        Object.entries(req.headers).filter(([name]) => !['host', 'connection', 'keep-alive'].includes(name)),
      );
      const body = chunks.length > 0 ? Buffer.concat(chunks) : undefined;
      const held = holds.get(`${req.method} ${req.url}`) ?? Promise.resolve();
      held
        .then(() =>
          request(`${target}${req.url}`, {
            method: req.method as 'GET',
            headers: headers as Record<string, string>,
            body,
          }),
        )
        .then(async (answer) => {
          const bytes = Buffer.from(await answer.body.arrayBuffer());
          answers.push({
            method: req.method ?? 'GET',
            path: req.url ?? '/',
            status: answer.statusCode,
            headers: answer.headers,
            body: bytes,
            requestHeaders: headers,
          });
          const passed = Object.fromEntries(
            Object.entries(answer.headers).filter(
              ([name]) => !['connection', 'keep-alive', 'transfer-encoding'].includes(name),
            ),
          );
          res.writeHead(answer.statusCode, passed as Record<string, string>);
          res.end(bytes);
        })
        .catch(() => res.destroy());
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    answers,
    hold(route) {
      let release = () => {};
      holds.set(route, new Promise<void>((resolve) => (release = resolve)));
      return () => {
        holds.delete(route);
        release();
      };
    },
    stop: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
