/**
 * The BFF's own routes take no query parameters; one that arrives is a 400
 * VALIDATION_FAILED, as the API answers unknown parameters (its validator refuses them),
 * so a typo in the SPA fails loudly instead of being ignored.
 */
import type { RequestHandler } from 'express';
import { answerProblem } from './problem.ts';

/** Refuses any query string on the routes it is mounted on. */
export function rejectQueryParameters(): RequestHandler {
  return (req, res, next) => {
    const names = Object.keys(req.query as Record<string, unknown>);
    if (names.length === 0) return next();
    answerProblem(
      res,
      'VALIDATION_FAILED',
      `This route takes no query parameters (got ${names.join(', ')}).`,
    );
  };
}
