import { createServer, type Server } from 'node:http';
import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { answerClientError } from './clientError.ts';

/** The raw answer to `request`, written on its own socket, read until the server closes it. */
function rawAnswer(port: number, request: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1');
    let text = '';
    socket.on('data', (chunk) => (text += chunk.toString('utf8')));
    socket.on('end', () => resolve(text));
    socket.on('error', reject);
    socket.write(request);
  });
}

describe('a request Node cannot parse', () => {
  let server: Server;
  let port: number;
  beforeAll(async () => {
    server = createServer((_req, res) => res.end('parsed'));
    server.on('clientError', answerClientError);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    port = (server.address() as { port: number }).port;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  it.each([
    ['headers over 16 KiB', `GET / HTTP/1.1\r\nhost: x\r\nx-big: ${'a'.repeat(17 * 1024)}\r\n\r\n`, 431, 'HEADERS_TOO_LARGE'],
    ['a broken request line', 'NOT HTTP AT ALL\r\n\r\n', 400, 'VALIDATION_FAILED'],
  ])('%s: problem+json whose traceId is the X-Trace-Id header, as on every answer', async (_name, request, status, errorCode) => {
    const answer = await rawAnswer(port, request);
    const [head, body] = answer.split('\r\n\r\n');
    expect(head).toMatch(new RegExp(`^HTTP/1.1 ${status} `));
    const problem = JSON.parse(body!);
    expect([problem.status, problem.errorCode]).toEqual([status, errorCode]);
    expect(head).toMatch(/\r\ncontent-type: application\/problem\+json\r\n/i);
    expect(head!.match(/\r\nx-trace-id: ([0-9a-f]{32})(\r\n|$)/i)?.[1]).toBe(problem.traceId);
  });
});
