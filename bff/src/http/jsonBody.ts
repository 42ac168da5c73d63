/**
 * The JSON body of a BFF route (sign-in, sign-up): parsed by express.json (bounded), and
 * required to be an object. The API validates its fields; the BFF only refuses what it
 * cannot forward at all.
 */
import express, { type Request, type RequestHandler, type Response } from 'express';
import { answerProblem } from './problem.ts';

/** express.json for the BFF's own routes (the proxy streams its bodies and never parses them). */
export function parseJsonBody(limitBytes: number): RequestHandler {
  return express.json({ limit: limitBytes, strict: true, type: 'application/json' });
}

/** The body as an object, or undefined after answering 415/400. */
export function jsonObjectBody(req: Request, res: Response): Record<string, unknown> | undefined {
  if (!req.is('application/json')) {
    answerProblem(res, 'UNSUPPORTED_MEDIA_TYPE', 'Send the body as application/json.');
    return undefined;
  }
  const body: unknown = req.body;
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    answerProblem(res, 'VALIDATION_FAILED', 'The body must be a JSON object.');
    return undefined;
  }
  return body as Record<string, unknown>;
}
