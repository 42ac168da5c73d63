/**
 * What a request must look like before the BFF works on it (adr/0012), each a refusal of
 * input that would otherwise reach a 500, a misleading 503 or a bare answer of Node's:
 *
 * - `refuseDeepJson`: a JSON body nested deeper than 32 levels is 400 VALIDATION_FAILED
 *   (no BFF body nests at all; 5,000 levels overflowed the stack, which read as the API
 *   being unreachable). Measured without recursion.
 * - `methodNotAllowed`: a /bff path asked with a method it does not have is 405 with
 *   `Allow` (RFC 9110 §15.5.6), not 404: the path is there.
 * - `answerClientError`: a request Node could not parse (headers over 16 KiB, a broken
 *   request line) is answered problem+json (431 or 400), not with a bare status line.
 */
import type { RequestHandler } from 'express';
import { jsonShape, MAX_JSON_DEPTH } from '@tidewater/contract/http';
import { answerProblem } from './problem.ts';

/** The `clientError` listener is the API's too: written once in the contract workspace. */
export { answerClientError } from '@tidewater/contract/http';

/** The deepest nesting of arrays and objects in `value`, counted without recursion (the API's walk). */
export function jsonDepth(value: unknown): number {
  return jsonShape(value).depth;
}

/** 400 VALIDATION_FAILED for a body nested deeper than 32 levels. */
export function refuseDeepJson(): RequestHandler {
  return (req, res, next) => {
    if (jsonDepth(req.body) > MAX_JSON_DEPTH) return answerProblem(res, 'VALIDATION_FAILED', `The JSON body nests deeper than ${MAX_JSON_DEPTH} levels.`);
    next();
  };
}

/** The BFF's own paths and their methods (spec/bff.yaml; bffRoutes.test.ts keeps them equal). */
export const bffRoutes: Readonly<Record<string, readonly string[]>> = {
  '/bff/session': ['GET'],
  '/bff/session/keepalive': ['POST'],
  '/bff/register': ['POST'],
  '/bff/login': ['POST'],
  '/bff/logout': ['POST'],
  '/bff/health': ['GET'],
  '/bff/ready': ['GET'],
};

/** 405 METHOD_NOT_ALLOWED, with Allow, for a /bff path asked with another method. */
export function methodNotAllowed(): RequestHandler {
  return (req, res, next) => {
    const allowed = bffRoutes[req.baseUrl + req.path];
    const method = req.method === 'HEAD' ? 'GET' : req.method; // Express answers HEAD on a GET route
    if (!allowed || allowed.includes(method)) return next();
    res.setHeader('Allow', [...allowed, ...(allowed.includes('GET') ? ['HEAD'] : [])].join(', '));
    answerProblem(res, 'METHOD_NOT_ALLOWED', `${req.method} is not one of this path's methods: ${allowed.join(', ')}.`);
  };
}
