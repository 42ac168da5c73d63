/**
 * Failed sign-ins are limited per email (express-rate-limit): after SIGN_IN_FAILURE_LIMIT
 * wrong passwords within SIGN_IN_WINDOW_MS, that email answers 429 TOO_MANY_REQUESTS with
 * Retry-After until the window ends. Only refused passwords (401) count: a customer who
 * signs in often is never slowed, and an outage's 503s lock nobody out. Keyed by email, not by address: a password guesser
 * moving between addresses still meets the limit. The counts live in this process.
 */
import type { RequestHandler } from 'express';
import { rateLimit } from 'express-rate-limit';
import type { Config } from '../config.ts';
import { ApiProblem } from './apiProblem.ts';

/** The limiter for POST /api/auth/token (mounted after validation, so the body is an object). */
export function signInLimit(config: Pick<Config, 'signInFailureLimit' | 'signInWindowMs'>): RequestHandler {
  return rateLimit({
    windowMs: config.signInWindowMs,
    limit: config.signInFailureLimit,
    // Only a refused password counts: an outage's 503 must not lock a customer out.
    skipSuccessfulRequests: true,
    requestWasSuccessful: (_req, res) => res.statusCode !== 401,
    standardHeaders: false,
    legacyHeaders: false,
    keyGenerator: (req) => String((req.body as { email?: unknown } | undefined)?.email ?? '').trim().toLowerCase(),
    handler: (req, _res, next) => {
      const resetTime = (req as { rateLimit?: { resetTime?: Date } }).rateLimit?.resetTime;
      const retryAfterSeconds = Math.max(1, Math.ceil(((resetTime?.getTime() ?? Date.now() + config.signInWindowMs) - Date.now()) / 1000));
      next(new ApiProblem('TOO_MANY_REQUESTS', 'Too many failed sign-ins for this email. Try again later.', { retryAfterSeconds }));
    },
  });
}
