/**
 * Hands an API error answer to the visitor as it came: status, problem+json body and the
 * headers that carry meaning (Retry-After, Cache-Control). A 5xx that is not a problem
 * (something between us and the API wrote it, or it is empty) becomes the BFF's own 503,
 * so the SPA always gets one shape for an outage.
 */
import type { Response } from 'express';
import { answerUnavailable } from '../http/problem.ts';
import { isProblemAnswer, type ApiAnswer } from './apiClient.ts';

const meaningfulHeaders = ['content-type', 'retry-after', 'cache-control'];

/** Sends the API's error answer. */
export function passThroughAnswer(res: Response, answer: ApiAnswer, retryAfterSeconds: number): void {
  if (res.headersSent || res.destroyed) return;
  if (answer.status >= 500 && !isProblemAnswer(answer)) {
    answerUnavailable(
      res,
      'The bank is briefly unavailable. Please try again in a moment.',
      retryAfterSeconds,
    );
    return;
  }
  for (const name of meaningfulHeaders) {
    const value = answer.headers[name];
    if (value !== undefined) res.setHeader(name, value);
  }
  res.status(answer.status).send(answer.body);
}
