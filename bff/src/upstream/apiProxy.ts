/**
 * `/api/*`: the signed-in visitor's requests, forwarded to the API with the session's
 * access token. In order: a signed-in session (else 401), the CSRF token on writes (else
 * 403), a fresh token (freshAccessToken.ts), then one forward:
 *
 * - never retried: the visitor's request reaches the API at most once; the SPA decides;
 * - streamed both ways (undici), with only the headers the API reads (forwardedHeaders.ts);
 *   the visitor's body goes through a PassThrough of its own, so when the API answers before
 *   it has read the whole body (a 413, a 404 for an unknown path, adr/0064) and drops the
 *   rest, undici ends only that copy, never the visitor's connection: the refusal is passed
 *   on, and 499 stays the log of a visitor who left;
 * - the API's answer as it is: status, body, Retry-After, Cache-Control, X-Trace-Id;
 * - no answer within BFF_UPSTREAM_TIMEOUT_MS (55 s), or a refused/reset connection: the
 *   BFF's own 503 SERVICE_UNAVAILABLE (Retry-After, no-store) without `applied`, since
 *   only the API knows whether a money send landed. One status for both, so the SPA has
 *   one branch for "no answer from the bank" (a 502 would tell it nothing more);
 * - the visitor hanging up aborts the call to the API (logged as 499, nothing written); the
 *   API may still finish what it started (a COMMIT is never cancelled), so the log says so.
 *
 * `/api/auth/*` is not offered here: its answers carry tokens, which never reach the
 * browser. The SPA signs in, up and out through `/bff/*`.
 */
import { PassThrough } from 'node:stream';
import { finished } from 'node:stream/promises';
import type { Request, RequestHandler, Response } from 'express';
import { request } from 'undici';
import type { BffDeps } from '../deps.ts';
import { csrfRefused } from '../http/csrf.ts';
import { answerProblem, answerUnavailable, traceIdOf, upstreamTraceOf } from '../http/problem.ts';
import { visitorSignal } from '../http/visitorSignal.ts';
import { isSignedIn } from '../session/sessionData.ts';
import { freshAccessToken } from './freshAccessToken.ts';
import { hasRequestBody, headersTowardsApi, headersTowardsVisitor } from './forwardedHeaders.ts';
import { describeNetworkError, upstreamAbort, upstreamFailureOf, VISITOR_LEFT } from './upstreamFailure.ts';
import { noteUnavailable } from '../metrics.ts';

/** The path and query to forward, normalised (dot segments resolved); undefined for paths not offered. */
export function forwardedTarget(originalUrl: string): string | undefined {
  const url = new URL(originalUrl, 'http://bff.invalid');
  let decoded: string;
  try {
    decoded = decodeURIComponent(url.pathname);
  } catch {
    return undefined;
  }
  const canonical = decoded.toLowerCase().replace(/\/{2,}/g, '/');
  if (!canonical.startsWith('/api/') || canonical === '/api/auth' || canonical.startsWith('/api/auth/'))
    return undefined;
  return `${url.pathname}${url.search}`;
}

/** Sends the request on and streams the answer back. */
async function forward(
  req: Request,
  res: Response,
  target: string,
  accessToken: string,
  { api, config }: BffDeps,
): Promise<void> {
  const abort = upstreamAbort(config.upstreamTimeoutMs, visitorSignal(res));
  const startedAt = Date.now();
  try {
    const answer = await request(`${api.apiUrl}${target}`, {
      method: req.method as 'GET',
      headers: headersTowardsApi(req.headers, upstreamTraceOf(res), accessToken, req.ip),
      // Not `req` itself: undici destroys the body it was given when the API stops reading it.
      body: hasRequestBody(req.method, req.headers) ? req.pipe(new PassThrough()) : undefined,
      signal: abort.signal,
      dispatcher: api.dispatcher,
    });
    // An answer before the visitor's whole body arrived is a refusal the API gave without the rest:
    // read the rest and drop it, as Node does for a body nobody reads, so the visitor, still
    // sending, gets the answer and not a reset connection.
    if (!req.complete) req.unpipe().resume();
    res.status(answer.statusCode);
    for (const [name, value] of headersTowardsVisitor(answer.headers)) res.setHeader(name, value);
    // pipe, not stream.pipeline: pipeline puts seven 'close' listeners on the response, which
    // with the request log's, the trace span's, the metrics' and the hang-up watch's passed
    // Node's ten (MaxListenersExceededWarning on every proxied answer). A hang-up aborts the
    // call through the visitor's signal, which ends the body, so watching the body is enough.
    answer.body.pipe(res);
    await finished(answer.body);
  } catch (error) {
    const failure = upstreamFailureOf(abort.signal);
    const cause = describeNetworkError(error);
    const upstreamMs = Date.now() - startedAt;
    if (failure === 'hungUp') {
      req.log.info({ upstreamMs }, VISITOR_LEFT);
      return;
    }
    if (res.headersSent) {
      req.log.warn({ upstreamMs, failure, cause }, "the API's answer broke off midway");
      res.destroy();
      return;
    }
    req.log.warn({ upstreamMs, failure, cause }, 'the API gave no answer; answering 503');
    noteUnavailable(res, failure === 'timeout' ? 'upstream_timeout' : 'upstream_unreachable');
    answerUnavailable(
      res,
      failure === 'timeout'
        ? 'The bank did not answer in time. If you sent money, check your movements before sending it again.'
        : 'The bank cannot be reached just now. Please try again in a moment.',
      config.retryAfterSeconds,
    );
  } finally {
    abort.end();
  }
}

/** The `/api/*` proxy. */
export function apiProxy(deps: BffDeps): RequestHandler {
  return async (req, res) => {
    const target = forwardedTarget(req.originalUrl);
    if (!target) {
      answerProblem(
        res,
        'NOT_FOUND',
        'Sign-in, sign-up and sign-out go through /bff/login, /bff/register and /bff/logout.',
      );
      return;
    }
    if (!isSignedIn(req.session)) {
      answerProblem(res, 'UNAUTHENTICATED', 'Your session has ended. Please sign in again.');
      return;
    }
    if (csrfRefused(req, deps.config)) {
      answerProblem(res, 'FORBIDDEN', 'This request needs the X-CSRF-Token header from GET /bff/session.');
      return;
    }
    let token;
    try {
      token = await freshAccessToken(req, deps, traceIdOf(res));
    } catch (error) {
      req.log.warn({ err: error }, 'the session store failed before forwarding');
      noteUnavailable(res, 'session_store');
      answerUnavailable(
        res,
        'We could not reach your session just now. Please try again in a moment.',
        deps.config.retryAfterSeconds,
      );
      return;
    }
    if (token.kind === 'ended') {
      req.log.info('the API refused the refresh token; the session has ended');
      answerProblem(res, 'UNAUTHENTICATED', 'Your session has ended. Please sign in again.');
      return;
    }
    if (token.kind === 'unavailable') {
      req.log.warn(
        { detail: token.detail },
        'the session could not be renewed; answering 503 (still signed in)',
      );
      noteUnavailable(res, 'renewal');
      answerUnavailable(
        res,
        'We could not renew your session just now. You are still signed in; please try again in a moment.',
        deps.config.retryAfterSeconds,
      );
      return;
    }
    if (visitorSignal(res).aborted) {
      req.log.info('the visitor hung up before the request was forwarded');
      return;
    }
    await forward(req, res, target, token.accessToken, deps);
  };
}
