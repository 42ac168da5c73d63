/**
 * Turns whatever a request ends in into one honest answer (RFC 9457 problem+json):
 * a catalogued ApiProblem as itself, a refusal an Idempotency-Key stored as the bytes it stored, bad input as 400/413/415, an outage as 503 with
 * Retry-After and no-store, a client that hung up as nothing at all (app.ts logs its 499), and
 * anything unexplained as a 500 that names its traceId and nothing of its internals.
 */
import type { ErrorRequestHandler, Request, Response } from 'express';
// The problem builder and writer are the BFF's too: written once in the contract workspace.
import { problemBody, type ProblemBody, type ValidationFault } from '@tidewater/contract/errors';
import { writeProblem } from '@tidewater/contract/http';
import { ApiProblem, isApiProblem, type ProblemExtras } from '../errors/apiProblem.ts';
import { isStoredProblem } from '../errors/storedProblem.ts';
import { outageOf, unavailableCauseOf } from '../data/outage.ts';
import { noteUnavailableAnswer } from './requestMetrics.ts';
import type { RequestContext } from '../request/requestContext.ts';
import { writeRateLimitFields } from '../request/rateLimitFields.ts';

interface HttpishError {
  status?: number;
  statusCode?: number;
  type?: string;
  message?: string;
  errors?: Array<{ path?: string; message?: string }>;
}

/**
 * Where one of the validator's faults is, as the spec's Problem.errors says: its path
 * (`/body/amountMinor`, `/query/limit`, `/headers/idempotency-key`, `/params/accountId`)
 * as a JSON Pointer into the body (`#/amountMinor`), or the parameter or header it names.
 */
function faultOf(fault: { path?: string; message?: string }): ValidationFault {
  const detail = fault.message ?? 'is not valid';
  const [, part = '', ...rest] = (fault.path ?? '').split('/');
  if (part === 'body') return { detail, pointer: `#${rest.length > 0 ? `/${rest.join('/')}` : ''}` };
  if (part === 'headers' && rest[0]) return { detail, header: rest[0] };
  if ((part === 'query' || part === 'params') && rest[0]) return { detail, parameter: rest[0] };
  return { detail };
}

/** Maps body-parser's and express-openapi-validator's errors to catalogued problems. */
function inputProblem(error: HttpishError): ApiProblem | undefined {
  if (error.type === 'entity.parse.failed') return new ApiProblem('MALFORMED_JSON', 'The request body is not valid JSON.');
  if (error.type === 'entity.too.large') return new ApiProblem('PAYLOAD_TOO_LARGE');
  const status = error.status ?? error.statusCode;
  if (status === undefined || status < 400 || status >= 500) return undefined;
  const details = (error.errors ?? []).map((e) => `${e.path ?? ''} ${e.message ?? ''}`.trim()).join('; ');
  switch (status) {
    case 400: {
      // Missing is its own code; a key that is there but malformed is a validation failure like any other.
      const missingKey = (error.errors ?? []).some((e) => /required property 'idempotency-key'/i.test(e.message ?? ''));
      if (missingKey) return new ApiProblem('IDEMPOTENCY_KEY_MISSING', details);
      const faults = (error.errors ?? []).map(faultOf);
      return new ApiProblem('VALIDATION_FAILED', details || error.message, faults.length > 0 ? { errors: faults } : {});
    }
    case 401: return new ApiProblem('UNAUTHENTICATED');
    case 404: return new ApiProblem('NOT_FOUND');
    case 405: return new ApiProblem('METHOD_NOT_ALLOWED');
    case 413: return new ApiProblem('PAYLOAD_TOO_LARGE');
    case 415: return new ApiProblem('UNSUPPORTED_MEDIA_TYPE', details || error.message);
    default: return undefined;
  }
}

/** True when the client is gone: nothing we write would reach it. */
function clientHungUp(req: Request, res: Response): boolean {
  return req.socket.destroyed || (res.closed && !res.writableFinished);
}

/**
 * Classifies any error into the problem to answer. An outage carries the wait and what
 * the request's `outageExtras` add (a money send's `applied: false`).
 */
function toProblem(error: unknown, traceId: string, retryAfterSeconds: number, outageExtras: ProblemExtras = {}): ProblemBody {
  if (isStoredProblem(error)) return error.body;
  if (isApiProblem(error)) return problemBody(error.code, traceId, error.detail, error.extras);
  const input = inputProblem(error as HttpishError);
  if (input) return problemBody(input.code, traceId, input.detail, input.extras);
  const outage = outageOf(error);
  if (outage) {
    return problemBody('SERVICE_UNAVAILABLE', traceId, 'The service is temporarily unavailable. Please try again later.', {
      retryAfterSeconds,
      ...outageExtras,
    });
  }
  return problemBody('INTERNAL', traceId, `Something went wrong on our side. Quote ${traceId} if you contact us.`);
}

/** The last middleware: every error becomes one problem, or nothing for a gone client. */
export function problemHandler(retryAfterSeconds: number): ErrorRequestHandler {
  return (error, req, res, _next) => {
    const traceId = String(req.id ?? '');
    if (clientHungUp(req, res)) {
      // Its one 499 line is the request's completion line (http/requestLog.ts); this is what the work ended in.
      req.log?.debug({ err: error }, 'the work of a request whose client hung up ended');
      return;
    }
    const context = res.locals.context as RequestContext | undefined;
    const body = toProblem(error, traceId, retryAfterSeconds, context?.outageExtras?.());
    if (body.status === 503) noteUnavailableAnswer(res, unavailableCauseOf(error, context?.unavailableCause));
    if (body.status >= 500) req.log?.error({ err: error, errorCode: body.errorCode }, 'request failed');
    else req.log?.info({ errorCode: body.errorCode, detail: body.detail }, 'request refused');
    if (res.headersSent) {
      res.destroy();
      return;
    }
    // A 405 names the methods the path does have (RFC 9110 §15.5.6); the validator knows them.
    const allow = (error as { headers?: { Allow?: string } }).headers?.Allow;
    if (body.status === 405 && allow) res.setHeader('Allow', allow);
    if (isStoredProblem(error) && error.replayed) res.setHeader('Idempotent-Replayed', 'true');
    writeRateLimitFields(res, context);
    writeProblem(res, body);
  };
}
