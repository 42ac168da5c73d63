/**
 * The API's one ordered middleware list. The order is the design:
 *
 * 1. logging and traceId first, so every later line (and every error) names its request;
 * 2. security headers, before anything can answer;
 * 3. the request scope (AsyncLocalStorage: traceId, signal), so the data layer sees it;
 * 4. HEAD as GET (RFC 9110), then the JSON body parser, bounded, and its shape check, so
 *    bad, huge, absurdly nested or ill-formed bodies end as 400/413 before any work;
 * 5. the OpenAPI validator, so handlers only ever see inputs the spec allows (and, in
 *    tests, every answer is checked against the spec on its way out);
 * 6. the operations, one handler per operationId (sign-in counts its failures itself:
 *    domain/signInLimits.ts);
 * 7. the problem handler last, turning every error into one honest problem+json answer.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import express, { type Express } from 'express';
import helmet from 'helmet';
import { traceIdLogOptions, trustProxySetting } from '@tidewater/contract/http';
import * as OpenApiValidator from 'express-openapi-validator';
import { pinoHttp } from 'pino-http';
import type { Logger } from 'pino';
import type { ServerConfig } from './config.ts';
import type { Database } from './data/database.ts';
import { createDataLayer } from './data/createDataLayer.ts';
import { databaseMarks, memoryMarks } from './data/readYourWrites.ts';
import { accessTokens } from './domain/accessTokens.ts';
import type { DomainDeps } from './domain/deps.ts';
import { healthHandlers } from './domain/health.ts';
import { accountHandlers } from './domain/accounts.ts';
import { accountChangeHandlers } from './domain/accountChanges.ts';
import { moneyHandlers } from './domain/money/handlers.ts';
import { stepUpHandlers } from './domain/stepUp.ts';
import { transactionHandlers } from './domain/transactions.ts';
import { sessionHandlers } from './domain/sessions.ts';
import { userHandlers } from './domain/users.ts';
import { bearerAuthentication } from './http/authenticate.ts';
import { transactionCursors } from './domain/transactionCursor.ts';
import { secretHashing } from './domain/secrets.ts';
import { mountOperations, type Handlers } from './http/operationRouter.ts';
import { problemHandler } from './http/problems.ts';
import { requestScope } from './http/requestScope.ts';
import { headAsGet, refuseMalformedJson } from './http/requestShape.ts';

const require = createRequire(import.meta.url);
const specPath = require.resolve('@tidewater/spec/openapi.json');

/** The client left before its answer was written (the response closed unfinished). */
const hungUp = (res: { writableFinished: boolean }) => !res.writableFinished;
const hangUpMessage = 'client closed the request before its answer';

/** Builds the API app on an open database, signing with `signingSecret` (signingSecret.ts). */
export function createApp(options: {
  config: ServerConfig;
  database: Database;
  logger: Logger;
  signingSecret: string;
  validateResponses?: boolean;
}): Express {
  const { config, database, logger, signingSecret } = options;
  const marks = config.readYourWritesStore === 'database' ? databaseMarks(database.prisma) : memoryMarks();
  const data = createDataLayer({ database, config, logger, marks });
  const deps: DomainDeps = {
    config,
    data,
    tokens: accessTokens(signingSecret, config.accessTokenTtlSeconds),
    cursors: transactionCursors(signingSecret),
    secrets: secretHashing(config),
  };
  const authenticate = bearerAuthentication(deps.tokens, async (userId) =>
    (await data.read((db) => db.user.findUnique({ where: { id: userId }, select: { id: true } }))) !== null,
  );
  const handlers: Handlers = {
    ...userHandlers(deps),
    ...sessionHandlers(deps),
    ...accountHandlers(deps),
    ...healthHandlers(deps),
    ...accountChangeHandlers(deps),
    ...stepUpHandlers(deps),
    ...moneyHandlers(deps),
    ...transactionHandlers(deps),
  };

  const app = express();
  app.disable('x-powered-by');
  // req.ip is the visitor's address as the BFF (a trusted proxy) forwards it: the sign-in limits count by it.
  app.set('trust proxy', trustProxySetting(config.apiTrustProxy));
  app.set('etag', false);
  app.use(
    pinoHttp({
      logger,
      // The caller's X-Trace-Id when short and plain, else a new one (the BFF's rule too); every
      // line this request logs (req.log, the retry warnings included) carries it.
      ...traceIdLogOptions,
      // A client that hung up is one line, whenever it left (mid-work, after a COMMIT started,
      // on an operation exempt from hang-ups): 499 and the same words. The response closed
      // before it finished, so pino-http logs it at 'close'.
      customLogLevel: (_req, res, error) => (hungUp(res) ? 'info' : error || res.statusCode >= 500 ? 'error' : 'info'),
      customSuccessMessage: (_req, res) => (hungUp(res) ? hangUpMessage : 'request completed'),
      customErrorMessage: (_req, res) => (hungUp(res) ? hangUpMessage : 'request errored'),
      // Method and URL only: headers carry bearer tokens, which never reach a log line.
      serializers: {
        req: (req: { method: string; url: string }) => ({ method: req.method, url: req.url }),
        res: (res: { statusCode: number | null; raw: { writableFinished: boolean } }) => ({ statusCode: hungUp(res.raw) ? 499 : res.statusCode }),
      },
    }),
  );
  app.use(helmet({ contentSecurityPolicy: { directives: { defaultSrc: ["'none'"], frameAncestors: ["'none'"] } } }));
  app.use(requestScope());
  app.use(headAsGet());
  app.use(express.json({ limit: config.bodyLimitBytes, strict: true, type: 'application/json' }));
  app.use(refuseMalformedJson());
  app.use(
    OpenApiValidator.middleware({
      apiSpec: JSON.parse(readFileSync(specPath, 'utf8')),
      validateRequests: { allowUnknownQueryParameters: false },
      validateResponses: options.validateResponses ?? false,
      validateSecurity: false,
      validateFormats: true,
    }),
  );
  mountOperations(app, handlers, {
    authenticate,
    beginRequest: (userId) => data.beginRequest(userId),
    deadlineMs: config.requestDeadlineMs,
  });
  app.use(problemHandler(config.retryAfterSeconds));
  return app;
}
