/**
 * The BFF's one ordered middleware list. The order is the design:
 *
 *  0. the request's timer (metrics.ts), so every answer is counted; `/metrics` itself is
 *     on its own port (main.ts), never here;
 *  1. the hang-up watch first, before any work, so no hang-up goes unnoticed (and the
 *     log, whose close listener runs after it, records it as 499);
 *  2. the request log: it names the request (traceId, echoed and forwarded to the API)
 *     before anything can answer, and logs every answer;
 *  3. security headers, before anything can answer (/docs later replaces only its CSP);
 *  4. /bff's refusal of query parameters (400) and of a method a /bff path does not have
 *     (405 with Allow), before any /bff route runs;
 *  5. the probes (/bff/health, /bff/ready): no session, no cookie, cheap for a balancer;
 *  6. sessions, only on /bff and /api: the docs and the SPA's files never load one;
 *  7. the inactivity timeout, straight after the session is loaded, so nothing below
 *     ever sees a session that should have ended;
 *  8. the CSRF check on every /bff write, before its body is even parsed;
 *  9. the JSON body parser, bounded, and its depth check, for /bff only (the proxy
 *     streams bodies untouched);
 * 10. the BFF's own routes: session, keep-alive, register, login, logout;
 * 11. the /api proxy (its own order: signed in → CSRF → fresh token → forward);
 * 12. /bff's 404 problem, so an unknown /bff path never falls through to the SPA;
 * 13. the docs, then the SPA's files and its history fallback, then a 404 problem;
 * 14. the problem handler last, turning whatever escaped into one problem+json answer.
 */
import express, { type Express } from 'express';
import type { BffDeps } from './deps.ts';
import { requireCsrfToken } from './http/csrf.ts';
import { notFound, problemHandler } from './http/fallbackHandlers.ts';
import { parseJsonBody } from './http/jsonBody.ts';
import { rejectQueryParameters } from './http/rejectQuery.ts';
import { trustProxySetting } from '@tidewater/contract/http';
import { methodNotAllowed, refuseDeepJson } from './http/requestShape.ts';
import { requestLog } from './http/requestLog.ts';
import { securityHeaders } from './http/securityHeaders.ts';
import { watchForHangUp } from './http/visitorSignal.ts';
import { docsRoute } from './routes/docsRoute.ts';
import { healthRoutes } from './routes/healthRoutes.ts';
import { loginRoute } from './routes/loginRoute.ts';
import { logoutRoute } from './routes/logoutRoute.ts';
import { registerRoute } from './routes/registerRoute.ts';
import { sessionRoutes } from './routes/sessionRoutes.ts';
import { spaRoute } from './routes/spaRoute.ts';
import { endIdleSessions } from './session/idleTimeout.ts';
import { sessionMiddleware } from './session/sessionMiddleware.ts';
import { apiProxy } from './upstream/apiProxy.ts';
import { requestMetrics } from './metrics.ts';

/** Builds the BFF app. */
export function createApp(deps: BffDeps): Express {
  const { config } = deps;
  const app = express();
  app.disable('x-powered-by');
  app.set('etag', false);
  app.set('trust proxy', trustProxySetting(config.trustProxy));

  app.use(requestMetrics());
  app.use(watchForHangUp());
  app.use(requestLog(deps.logger));
  app.use(securityHeaders({ https: config.cookieSecure === 'true' }));
  app.use('/bff', rejectQueryParameters(), methodNotAllowed());
  app.use(healthRoutes(deps));
  app.use(['/bff', '/api'], sessionMiddleware(config, deps.sessionStore));
  app.use(['/bff', '/api'], endIdleSessions(deps));
  app.use('/bff', requireCsrfToken(config));
  app.use('/bff', parseJsonBody(config.bodyLimitBytes), refuseDeepJson());
  app.use(sessionRoutes(deps), registerRoute(deps), loginRoute(deps), logoutRoute(deps));
  app.use('/api', apiProxy(deps));
  app.use('/bff', notFound());
  app.use(docsRoute(deps));
  app.use(spaRoute(deps));
  app.use(notFound());
  app.use(problemHandler());
  return app;
}
