/**
 * `POST /bff/register` (CSRF-checked), the API's register body: the API's register, then
 * its createToken with the same email and password, then a new signed-in session.
 * Answers `201 { user, account }`. The API's refusals (400, 409, 413, 415, its 503) pass
 * through as they are.
 *
 * Two answers say what is known rather than guess: no answer to the register call is a
 * 503 saying the account may or may not exist (try signing in); an account created but
 * not signed in (the sign-in failed, or no time is left of the answer budget) is a 503
 * saying so, never a 201 without a session.
 */
import { Router } from 'express';
import type { components } from '@tidewater/spec/openapi';
import { answerBudgetMs } from '../config.ts';
import type { BffDeps } from '../deps.ts';
import { jsonObjectBody } from '../http/jsonBody.ts';
import { answerProblem, answerUnavailable, upstreamTraceOf } from '../http/problem.ts';
import { visitorSignal } from '../http/visitorSignal.ts';
import { keepDeviceToken, withDeviceToken } from '../session/deviceCookie.ts';
import { issuedTokens } from '../session/sessionData.ts';
import { passThroughAnswer } from '../upstream/passThrough.ts';
import { isTokenPair } from '../upstream/tokenCalls.ts';
import { isUser } from './loginRoute.ts';
import { answerNoAnswer } from './noAnswer.ts';
import { startSignedInSession } from './signIn.ts';

type RegisterRequest = components['schemas']['RegisterRequest'];
/** The API's answer, which is also the BFF's own (spec/bff.yaml refers to the same schema). */
type Registration = components['schemas']['Registration'];

/** The sign-up route. */
export function registerRoute(deps: BffDeps): Router {
  const { api, config } = deps;
  const router = Router();
  const createdNotSignedIn =
    'Your account was created, but we could not sign you in just now. Please sign in.';

  router.post('/bff/register', async (req, res) => {
    const body = jsonObjectBody(req, res);
    if (!body) return;
    const startedAt = Date.now();
    const trace = upstreamTraceOf(res);
    const traceId = trace.traceId;
    const signal = visitorSignal(res);
    // The visitor's body goes on as it came: the API validates it and its refusal passes through.
    const registerBody = body as RegisterRequest;
    const registered = await api.call(
      // The visitor's address: the API limits sign-ups per address (adr/0045), not per BFF.
      { ...trace, visitorAddress: req.ip, timeoutMs: config.upstreamTimeoutMs, signal },
      (client, init) => client.POST('/api/auth/register', { ...init, body: registerBody }),
    );
    if (registered.kind === 'noAnswer') {
      const unknown =
        'We do not know whether your account was created. In a moment, try signing in with the same email.';
      return answerNoAnswer(req, res, registered, unknown, config.retryAfterSeconds);
    }
    if (registered.status !== 201) return passThroughAnswer(res, registered, config.retryAfterSeconds);
    const registration: Registration | undefined = registered.data;
    if (!isUser(registration?.user))
      return answerProblem(
        res,
        'INTERNAL',
        `The sign-up answer was not understood. Quote ${traceId} if you contact us.`,
      );

    const leftMs = Math.min(config.upstreamTimeoutMs, answerBudgetMs(config) - (Date.now() - startedAt));
    if (leftMs <= 0) return answerUnavailable(res, createdNotSignedIn, config.retryAfterSeconds);
    const credentials = withDeviceToken(req, config, { email: registerBody.email, password: registerBody.password });
    const token = await api.call(
      { ...trace, visitorAddress: req.ip, timeoutMs: leftMs, signal },
      (client, init) => client.POST('/api/auth/token', { ...init, body: credentials }),
    );
    if (token.kind === 'noAnswer')
      return answerNoAnswer(req, res, token, createdNotSignedIn, config.retryAfterSeconds);
    const pair = token.status === 200 ? token.data : undefined;
    if (!isTokenPair(pair)) {
      req.log.warn({ status: token.status }, 'sign-in after sign-up failed');
      return answerUnavailable(res, createdNotSignedIn, config.retryAfterSeconds);
    }
    if (!(await startSignedInSession(req, res, deps, issuedTokens(pair, startedAt), registration.user)))
      return;
    keepDeviceToken(res, config, pair.deviceToken);
    res.setHeader('Cache-Control', 'no-store');
    res.status(201).json({ user: registration.user, account: registration.account } satisfies Registration);
  });

  return router;
}
