/**
 * A request Node could not even parse (headers over 16 KiB, a broken request line) is
 * answered problem+json (431 HEADERS_TOO_LARGE or 400 VALIDATION_FAILED) by the API and
 * the BFF alike, not with Node's bare status line (adr/0012).
 */
import type { Duplex } from 'node:stream';
import { problemBody } from '../errors.ts';
import { newTraceId } from './traceContext.ts';

/** The server's `clientError` listener: a problem+json answer, then the connection closes. */
export function answerClientError(error: Error & { code?: string }, socket: Duplex): void {
  if (error.code === 'ECONNRESET' || !socket.writable) {
    socket.destroy();
    return;
  }
  const tooLarge = error.code === 'HPE_HEADER_OVERFLOW';
  const body = tooLarge
    ? problemBody('HEADERS_TOO_LARGE', newTraceId(), 'The request headers are larger than 16 KiB.')
    : problemBody('VALIDATION_FAILED', newTraceId(), 'The request could not be read as HTTP.');
  const text = JSON.stringify(body);
  socket.end(
    `HTTP/1.1 ${body.status} ${tooLarge ? 'Request Header Fields Too Large' : 'Bad Request'}\r\n` +
      // X-Trace-Id as on every other answer (the introduction's Errors), the body's traceId.
      `Content-Type: application/problem+json\r\nContent-Length: ${Buffer.byteLength(text)}\r\nX-Trace-Id: ${body.traceId}\r\nCache-Control: no-store\r\nConnection: close\r\n\r\n${text}`,
  );
}
