/**
 * What a request must look like before the spec's validator reads it (adr/0012), each a
 * refusal of input that would otherwise reach a 500 or a bare answer of Node's:
 *
 * - `headAsGet`: HEAD on a GET operation is that GET without its body (RFC 9110 §9.3.2).
 *   Node already left the body out when it saw HEAD; the router then finds the GET.
 * - `refuseMalformedJson`: a JSON body nested deeper than 32 levels (no body of this API
 *   nests more than 4; 5,000 levels blew the validator's stack), or with a lone surrogate
 *   in any string (no portable pattern can refuse one), is 400 VALIDATION_FAILED. Walked
 *   without recursion (contract/src/http/jsonShape.ts, shared with the BFF).
 * - `answerClientError`: a request Node could not even parse (headers over 16 KiB, a
 *   broken request line) is answered problem+json (431 HEADERS_TOO_LARGE or 400), not
 *   with Node's bare status line.
 */
import type { RequestHandler } from 'express';
import { jsonShape, MAX_JSON_DEPTH } from '@tidewater/contract/http';
import { ApiProblem } from '../errors/apiProblem.ts';

/** The `clientError` listener is the BFF's too: written once in the contract workspace. */
export { answerClientError } from '@tidewater/contract/http';

/** HEAD on a GET operation is answered as the GET, without its body. */
export function headAsGet(): RequestHandler {
  return (req, _res, next) => {
    if (req.method === 'HEAD') req.method = 'GET';
    next();
  };
}

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
