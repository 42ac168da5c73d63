/**
 * One log line per request (pino-http), named by its traceId: the W3C trace id of the
 * visitor's `traceparent` (the SPA sends one), else a W3C `X-Trace-Id`, else a new one (the
 * API's own rule, adr/0018). The id is echoed in the answer and forwarded on every call to
 * the API in the BFF's own `traceparent`, so one id finds a request in both logs. A
 * visitor who hung up is logged as 499. Cookies, the CSRF token and bearer tokens never
 * reach the log.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { RequestHandler } from 'express';
import type { Logger } from 'pino';
import { pinoHttp } from 'pino-http';
import { traceIdLogOptions } from '@tidewater/contract/http';

/** True when the visitor hung up before the answer was complete. */
function visitorHungUp(res: ServerResponse): boolean {
  return !res.writableFinished;
}

/** The URL as the visitor sent it (Express strips a router's mount path from `url`). */
function urlOf(req: IncomingMessage): string {
  return (req as IncomingMessage & { originalUrl?: string }).originalUrl ?? req.url ?? '';
}

/** pino-http's own stand-in error for a 5xx answer (not a failure of ours). */
function isStatusError(error: Error): boolean {
  return /^failed with status code \d+$/.test(error.message);
}

/** The request-log middleware. */
export function requestLog(logger: Logger): RequestHandler {
  return pinoHttp({
    logger,
    // The visitor's trace id (traceparent, else a W3C X-Trace-Id), else a new one (the API's
    // rule too); every line this request logs (req.log) carries it.
    ...traceIdLogOptions,
    // A visitor leaving is their choice, not a fault of ours: info, like any answer.
    customLogLevel: (_req, res, error) =>
      (error && !isStatusError(error)) || res.statusCode >= 500 ? 'error' : 'info',
    customSuccessMessage: (req, res) =>
      visitorHungUp(res)
        ? `${req.method} ${urlOf(req)} 499 (the visitor left)`
        : `${req.method} ${urlOf(req)} ${res.statusCode}`,
    customSuccessObject: (_req, res, value) =>
      visitorHungUp(res) ? { ...value, clientHungUp: true } : value,
    // A 5xx we answered on purpose is logged by its status, not as a stack trace.
    customErrorMessage: (req, res) => `${req.method} ${urlOf(req)} ${res.statusCode}`,
    customErrorObject: (_req, _res, error, value) =>
      isStatusError(error) ? { ...value, err: undefined } : value,
    serializers: {
      req: (req: { method: string; url: string; raw?: IncomingMessage }) => ({
        method: req.method,
        url: req.raw ? urlOf(req.raw) : req.url,
      }),
      // The raw status, also when no header went out (a 499).
      res: (res: { statusCode: number | null; raw?: ServerResponse }) => ({
        statusCode: res.raw?.statusCode ?? res.statusCode,
      }),
    },
  }) as unknown as RequestHandler;
}
