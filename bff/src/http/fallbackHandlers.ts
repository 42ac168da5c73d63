/**
 * The last two entries of the middleware list: a 404 problem for anything no route
 * answered, and the error handler that turns whatever escaped into one problem+json
 * answer (bad JSON or a malformed address 400, too large 413, anything unexplained 500 with its traceId and
 * nothing of its internals). Nothing is written to a visitor who hung up.
 */
import type { ErrorRequestHandler, RequestHandler } from 'express';
import { answerProblem, traceIdOf } from './problem.ts';

/** 404 NOT_FOUND for every path no route answered. */
export function notFound(): RequestHandler {
  return (_req, res) => answerProblem(res, 'NOT_FOUND', 'There is nothing at this address.');
}

/** The final error handler. */
export function problemHandler(): ErrorRequestHandler {
  return (error: { type?: string; status?: number }, req, res, next) => {
    if (res.headersSent) return next(error);
    if (error?.type === 'entity.parse.failed')
      return answerProblem(res, 'MALFORMED_JSON', 'The request body is not valid JSON.');
    if (error?.type === 'entity.too.large') return answerProblem(res, 'PAYLOAD_TOO_LARGE');
    if (error?.type === 'encoding.unsupported' || error?.type === 'charset.unsupported') {
      return answerProblem(res, 'UNSUPPORTED_MEDIA_TYPE', 'Send the body as UTF-8 application/json.');
    }
    // A path with a malformed percent-escape (/%ff): the router could not decode it.
    if (error instanceof URIError || error?.status === 400) {
      return answerProblem(res, 'VALIDATION_FAILED', 'The address is not valid (a malformed percent-escape?).');
    }
    req.log.error({ err: error }, 'unexplained failure');
    answerProblem(
      res,
      'INTERNAL',
      `Something went wrong on our side. Quote ${traceIdOf(res)} if you contact us.`,
    );
  };
}
