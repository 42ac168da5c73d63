/**
 * What a request must look like before the spec's validator reads it (adr/0012), each a
 * refusal of input that would otherwise reach a 500 or a bare answer of Node's:
 *
 * - `headAsGet`: HEAD on a GET operation is that GET without its body (RFC 9110 §9.3.2).
 *   Node already left the body out when it saw HEAD; the router then finds the GET.
 * - `refuseMalformedJson`: a JSON body nested deeper than 32 levels (no body of this API
 *   nests more than 4; 5,000 levels blew the validator's stack), or with a lone surrogate
 *   in any string (no portable pattern can refuse one), is 400 VALIDATION_FAILED. Walked
 *   without recursion, so the check itself cannot overflow.
 * - `answerClientError`: a request Node could not even parse (headers over 16 KiB, a
 *   broken request line) is answered problem+json (431 HEADERS_TOO_LARGE or 400), not
 *   with Node's bare status line.
 */
import { randomUUID } from 'node:crypto';
import type { Duplex } from 'node:stream';
import type { RequestHandler } from 'express';
import { ApiProblem } from '../errors/apiProblem.ts';
import { problemBody } from '../errors/problemBody.ts';

/** HEAD on a GET operation is answered as the GET, without its body. */
export function headAsGet(): RequestHandler {
  return (req, _res, next) => {
    if (req.method === 'HEAD') req.method = 'GET';
    next();
  };
}

/** A surrogate code point on its own (a pair reads as the one code point it encodes). */
const loneSurrogate = /\p{Cs}/u;

/** What a body holds that no request may: its nesting, and whether any string (key or value) is not well-formed Unicode. Walked without recursion. */
function jsonShape(value: unknown): { depth: number; wellFormed: boolean } {
  let depth = 0;
  let wellFormed = true;
  const stack: Array<[unknown, number]> = [[value, 0]];
  while (stack.length > 0) {
    const [node, level] = stack.pop()!;
    if (typeof node === 'string') wellFormed &&= !loneSurrogate.test(node);
    if (node === null || typeof node !== 'object') continue;
    depth = Math.max(depth, level + 1);
    for (const [key, child] of Object.entries(node)) {
      wellFormed &&= !loneSurrogate.test(key);
      stack.push([child, level + 1]);
    }
  }
  return { depth, wellFormed };
}

/** The deepest a body may nest. */
const MAX_JSON_DEPTH = 32;

/**
 * 400 VALIDATION_FAILED for a body nested deeper than MAX_JSON_DEPTH, or holding a lone
 * surrogate anywhere (PostgreSQL's jsonb refuses one: 22P02).
 */
export function refuseMalformedJson(): RequestHandler {
  return (req, _res, next) => {
    const { depth, wellFormed } = jsonShape(req.body);
    if (depth > MAX_JSON_DEPTH) return next(new ApiProblem('VALIDATION_FAILED', `The JSON body nests deeper than ${MAX_JSON_DEPTH} levels.`));
    if (!wellFormed) return next(new ApiProblem('VALIDATION_FAILED', 'The JSON body holds text that is not well-formed Unicode (a lone surrogate).'));
    next();
  };
}

/** The server's `clientError` listener: a problem+json answer, then the connection closes. */
export function answerClientError(error: Error & { code?: string }, socket: Duplex): void {
  if (error.code === 'ECONNRESET' || !socket.writable) {
    socket.destroy();
    return;
  }
  const tooLarge = error.code === 'HPE_HEADER_OVERFLOW';
  const body = tooLarge
    ? problemBody('HEADERS_TOO_LARGE', randomUUID(), 'The request headers are larger than 16 KiB.')
    : problemBody('VALIDATION_FAILED', randomUUID(), 'The request could not be read as HTTP.');
  const text = JSON.stringify(body);
  socket.end(
    `HTTP/1.1 ${body.status} ${tooLarge ? 'Request Header Fields Too Large' : 'Bad Request'}\r\n` +
      `Content-Type: application/problem+json\r\nContent-Length: ${Buffer.byteLength(text)}\r\nCache-Control: no-store\r\nConnection: close\r\n\r\n${text}`,
  );
}
