/**
 * `POST /bff/login` { email, password } (CSRF-checked): the API's createToken (with the
 * browser's device token from its cookie, which the answer's renews: deviceCookie.ts), then its
 * getMe with the new access token (5 s), then a new signed-in session. Answers
 * `200 { user }`; the tokens stay in the session. The API's refusals (400, 401, 429, its
 * 503) pass through as they are; no answer at all is the BFF's 503. If the profile cannot
 * be read the visitor is not signed in, and the fresh tokens are revoked.
 */
import { Router } from 'express';
import type { components as BffComponents } from '@tidewater/spec/bff';
import type { components } from '@tidewater/spec/openapi';
import { answerBudgetMs } from '../config.ts';
import type { BffDeps } from '../deps.ts';
import { jsonObjectBody } from '../http/jsonBody.ts';
import { answerProblem, answerUnavailable, upstreamTraceOf } from '../http/problem.ts';
import { visitorSignal } from '../http/visitorSignal.ts';
import { keepDeviceToken, withDeviceToken } from '../session/deviceCookie.ts';
import { issuedTokens, type User } from '../session/sessionData.ts';
import { passThroughAnswer } from '../upstream/passThrough.ts';
import { isTokenPair } from '../upstream/tokenCalls.ts';
import { answerNoAnswer } from './noAnswer.ts';
import { abandonTokens, startSignedInSession } from './signIn.ts';

type CreateTokenRequest = components['schemas']['CreateTokenRequest'];
type SignedIn = BffComponents['schemas']['SignedIn'];

/** True when `value` looks like the API's User. */
export function isUser(value: unknown): value is User {
  const user = value as Partial<User> | undefined;
  return typeof user?.id === 'string' && typeof user.email === 'string' && typeof user.handle === 'string';
}

/** The sign-in route. */
export function loginRoute(deps: BffDeps): Router {
  const { api, config } = deps;
  const router = Router();
  const notNow = 'We could not sign you in just now. Please try again in a moment.';

  router.post('/bff/login', async (req, res) => {
    const body = jsonObjectBody(req, res);
    if (!body) return;
    const startedAt = Date.now();
    const trace = upstreamTraceOf(res);
    const traceId = trace.traceId;
    const signal = visitorSignal(res);
    // The visitor's body goes on as it came (the API validates it and its refusal passes
    // through), with this browser's device token from its cookie.
    const credentials = withDeviceToken(req, config, body as CreateTokenRequest);
    const token = await api.call(
      { ...trace, visitorAddress: req.ip, timeoutMs: config.upstreamTimeoutMs, signal },
      (client, init) => client.POST('/api/auth/token', { ...init, body: credentials }),
    );
    if (token.kind === 'noAnswer') return answerNoAnswer(req, res, token, notNow, config.retryAfterSeconds);
    if (token.status !== 200) return passThroughAnswer(res, token, config.retryAfterSeconds);
    const pair = token.data;
    if (!isTokenPair(pair))
      return answerProblem(
        res,
        'INTERNAL',
        `The sign-in answer was not understood. Quote ${traceId} if you contact us.`,
      );
    const tokens = issuedTokens(pair, startedAt);

    const meBudgetMs = Math.min(config.meTimeoutMs, answerBudgetMs(config) - (Date.now() - startedAt));
    const me = await api.call(
      { ...trace, bearer: tokens.accessToken, timeoutMs: Math.max(meBudgetMs, 1), signal },
      (client, init) => client.GET('/api/me', init),
    );
    const user = me.kind === 'answer' && me.status === 200 ? me.data : undefined;
    if (!isUser(user)) {
      abandonTokens(req, res, deps, tokens.refreshToken);
      if (me.kind === 'noAnswer') return answerNoAnswer(req, res, me, notNow, config.retryAfterSeconds);
      if (me.status >= 500) return passThroughAnswer(res, me, config.retryAfterSeconds);
      req.log.warn({ status: me.status }, 'the profile could not be read after sign-in');
      return answerUnavailable(res, notNow, config.retryAfterSeconds);
    }
    if (!(await startSignedInSession(req, res, deps, tokens, user))) return;
    keepDeviceToken(res, config, pair.deviceToken);
    res.setHeader('Cache-Control', 'no-store');
    res.status(200).json({ user } satisfies SignedIn);
  });

  return router;
}
