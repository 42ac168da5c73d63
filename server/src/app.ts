/**
 * The API's one ordered middleware list, and the one place that states the whole order
 * of a request and of the data layer beneath it. The order is the design.
 *
 * A request, step by step (the `app.use` calls below, then `http/operationRouter.ts`):
 *
 * 0. the request's timer (`http/requestMetrics.ts`, adr/0017): every answer is counted by
 *    operationId and status, a 503 by its cause; `/metrics` is on its own port (serveApi.ts);
 * 1. logging and traceId first, so every later line (and every error) names its request;
 * 2. security headers, before anything can answer;
 * 3. the request scope (`http/requestScope.ts`): the context (traceId, logger, deadline,
 *    signal) in AsyncLocalStorage, so the data layer sees it; a hang-up fires the signal;
 * 4. HEAD as GET (RFC 9110), then the JSON body parser, bounded, and its shape check, so
 *    bad, huge, absurdly nested or ill-formed bodies end as 400/413 before any work;
 *    The pages problem `type`s name (`/docs/problems/…`, plain HTML) come next, outside the spec;
 * 5. the OpenAPI validator, so handlers only ever see inputs the spec allows (and, in
 *    tests, every answer is checked against the spec on its way out); then
 *    with API_SANDBOX=true only, `Tidewater-Simulate` (`sandbox/`, adr/0044), kept for
 *    the sandbox's data layer;
 * 6. the operation (the router), in this order:
 *    a. the deadline: `x-no-deadline` operations ignore a hang-up; every one is armed
 *       at REQUEST_DEADLINE_MS (`request/requestDeadline.ts`);
 *    b. authentication: a secured operation's bearer token, and its user exists;
 *    c. read-your-writes: the data layer learns the caller (`data.beginRequest`), whose
 *       reads go to the primary while their recent write's mark is fresh;
 *    d. the handler, one per operationId, on plain typed inputs (`contract/`; sign-in
 *       counts its failures itself: domain/identity/signInLimits.ts), raced against the signal:
 *       the deadline answers even when the database never does;
 *    e. the result filter: once a result exists the deadline is disarmed and the
 *       answer is sent whole;
 * 7. the problem handler last, turning every error into one honest problem+json answer
 *    (an outage 503, a hang-up nothing at all).
 *
 * Every database call of a handler then passes the data layer's wrappers, outermost
 * first (`data/createDataLayer.ts`, `data/connections/database.ts`):
 *
 * 1. the retry policy (`data/retry/`): a transient failure is tried again with backoff,
 *    within the process's retry budget; an attempt that met an open circuit breaker
 *    waits for it to close (until the deadline) without spending a retry;
 * 2. the transaction attempt: Prisma's `$transaction` (pool wait DB_POOL_WAIT_MS, timeout
 *    the deadline); a lost lock wait is rerun up to its contention attempts; a COMMIT
 *    whose answer was lost is looked for (`verifyCommitted`) before anything reruns; a
 *    fired signal's reason (deadline, hang-up) is the outcome;
 * 3. the commit gate (`data/commitGate/`): no statement or COMMIT starts after the
 *    signal fired; a COMMIT disarms the deadline, and one that does not answer in time
 *    is `CommitOutcomeUnknown`;
 * 4. reads only: the replica, falling back to the primary's read-only pool when it fails;
 * 5. the circuit breaker (`data/connections/breakerPool.ts`): while a database is known
 *    to be down, no connection is even tried: an outage at once;
 * 6. the cancellable pool (`data/commitGate/cancellableClient.ts`): a fired signal
 *    cancels the running statement on the server, never a COMMIT that started.
 *
 * The deadline, the retry policy, the commit gate, the circuit breaker and the cancellable
 * client are the resilience layers: `composeApi` takes them as one argument, so the bench
 * can compose the same API with pass-through ones and measure what they cost (bench/METHOD.md).
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import express, { type Express } from 'express';
import helmet from 'helmet';
import { trustProxySetting } from '@tidewater/contract/http';
import * as OpenApiValidator from 'express-openapi-validator';
import type { Logger } from 'pino';
import type { ServerConfig } from './config.ts';
import { type ConnectionLayers, type Database, databaseMarks, memoryMarks, openBankDatabase, resilientConnections } from './data/connections/index.ts';
import { createDataLayer, databaseRetryPolicy } from './data/createDataLayer.ts';
import type { RetryPolicy } from './data/retry/index.ts';
import { accessTokens } from './domain/identity/accessTokens.ts';
import type { DomainDeps } from './domain/deps.ts';
import { healthHandlers } from './domain/healthHandlers.ts';
import { accountHandlers } from './domain/accounts/accountHandlers.ts';
import { accountChangeHandlers } from './domain/accounts/accountChangeHandlers.ts';
import { moneyHandlers } from './domain/money/moneyHandlers.ts';
import { stepUpHandlers } from './domain/identity/stepUpHandlers.ts';
import { payeeHandlers } from './domain/identity/payeeHandlers.ts';
import { transactionHandlers } from './domain/accounts/transactionHandlers.ts';
import { savedPayeeHandlers } from './domain/money/savedPayeeHandlers.ts';
import { statementHandlers } from './domain/statements/statementHandlers.ts';
import { idempotencyKeyHandlers } from './domain/idempotency/idempotencyKeyHandlers.ts';
import { keysOnTheirWay } from './domain/idempotency/keysOnTheirWay.ts';
import { transferReadHandlers } from './domain/money/transferRead.ts';
import { sessionHandlers } from './domain/identity/sessionHandlers.ts';
import { userHandlers } from './domain/identity/userHandlers.ts';
import { bearerAuthentication } from './http/authenticate.ts';
import { transactionCursors } from './domain/accounts/transactionCursor.ts';
import { secretHashing } from './domain/identity/secrets.ts';
import { pinVerifiers, type PinPeppers } from './domain/identity/pinVerifier.ts';
import { liveSessions } from './domain/identity/liveSessions.ts';
import type { Handlers } from './contract/operations.ts';
import { mountOperations } from './http/operationRouter.ts';
import { problemHandler } from './http/problems.ts';
import { problemPages } from './http/problemPages.ts';
import { requestLog } from './http/requestLog.ts';
import { requestMetrics } from './http/requestMetrics.ts';
import { requestScope } from './http/requestScope.ts';
import { headAsGet, refuseMalformedJson } from './http/requestShape.ts';
import { sandboxDataLayer } from './sandbox/sandboxDataLayer.ts';
import { simulateHeader } from './sandbox/simulatedSend.ts';

const require = createRequire(import.meta.url);
const specPath = require.resolve('@tidewater/spec/openapi.json');

/** The layers the composition wraps around every request and database call. */
export interface ResilienceLayers {
  /** Each operation's deadline in ms (`request/requestDeadline.ts`); undefined: none is armed. */
  deadlineMs(config: ServerConfig): number | undefined;
  /** The data layer's one retry policy (`data/retry/`). */
  retryPolicy(database: Database, config: ServerConfig, logger: Logger): RetryPolicy;
  /** The commit gate, the cancellable client and the circuit breaker (`data/connections/connectionLayers.ts`). */
  readonly connections: ConnectionLayers;
}

/** Every layer on: the bank as it serves customers (main.ts). */
export const resilienceLayers: ResilienceLayers = {
  deadlineMs: (config) => config.requestDeadlineMs,
  retryPolicy: databaseRetryPolicy,
  connections: resilientConnections,
};

/** What the composition needs besides its layers. */
interface ApiOptions {
  config: ServerConfig;
  logger: Logger;
  /** Signs access tokens and cursors (signingSecret.ts). */
  signingSecret: string;
  /** The PIN verifiers' keys (pinPepper.ts, adr/0053). */
  pinPeppers: PinPeppers;
  validateResponses?: boolean;
}

/**
 * Composes the API with `layers`: opens and migrates its database through them
 * (`openBankDatabase`), then builds the app on it. Answers the app, the database to close
 * and the migrations applied.
 */
export async function composeApi(
  layers: ResilienceLayers,
  options: ApiOptions,
): Promise<{ app: Express; database: Database; applied: string[] }> {
  const { database, applied } = await openBankDatabase(options.config, options.logger, layers.connections);
  return { app: createApp(layers, database, options), database, applied };
}

/** Builds the API app on an open database. */
function createApp(layers: ResilienceLayers, database: Database, options: ApiOptions): Express {
  const { config, logger, signingSecret } = options;
  const secrets = secretHashing(config);
  const marks = config.readYourWritesStore === 'database' ? databaseMarks(database.prisma) : memoryMarks();
  // The data layer's wrappers, in the order of the comment above.
  const realData = createDataLayer({ database, config, logger, marks, policy: layers.retryPolicy(database, config, logger) });
  // API_SANDBOX only: the failures Tidewater-Simulate names, met where the real ones happen (sandbox/, adr/0044).
  const data = config.apiSandbox ? sandboxDataLayer(realData, config) : realData;
  const deps: DomainDeps = {
    config,
    data,
    tokens: accessTokens(signingSecret, config.accessTokenTtlSeconds, config.accessTokenCacheEntries),
    cursors: transactionCursors(signingSecret),
    secrets,
    pins: pinVerifiers(options.pinPeppers, secrets),
    sessions: liveSessions(data, config.accessTokenRecheckSeconds, config.accessTokenCacheEntries),
  };
  const authenticate = bearerAuthentication(deps.tokens, deps.sessions);
  // The keys of this process's money sends not yet claimed in the database (adr/0076): the sends hold them, the key's read sees them.
  const keysOnItsWay = keysOnTheirWay();
  const handlers: Handlers = {
    ...userHandlers(deps),
    ...sessionHandlers(deps),
    ...accountHandlers(deps),
    ...healthHandlers(deps),
    ...accountChangeHandlers(deps),
    ...stepUpHandlers(deps),
    ...payeeHandlers(deps),
    ...savedPayeeHandlers(deps),
    ...moneyHandlers(deps, keysOnItsWay),
    ...transactionHandlers(deps),
    ...statementHandlers(deps),
    ...idempotencyKeyHandlers(deps, keysOnItsWay),
    ...transferReadHandlers(deps),
  };

  const app = express();
  app.disable('x-powered-by');
  // req.ip is the visitor's address as the BFF (a trusted proxy) forwards it: the sign-in limits count by it.
  app.set('trust proxy', trustProxySetting(config.apiTrustProxy));
  app.set('etag', false);
  // Timed from the first middleware on; /metrics itself is on its own port (serveApi.ts), never here.
  app.use(requestMetrics());
  // The caller's trace id (traceparent, else a W3C X-Trace-Id, else a new one: adr/0018), and one
  // line per request (adr/0028); every line the request logs (req.log, the retry warnings
  // included) carries it as `traceId`.
  app.use(requestLog(logger));
  app.use(helmet({ contentSecurityPolicy: { directives: { defaultSrc: ["'none'"], frameAncestors: ["'none'"] } } }));
  app.use(requestScope());
  app.use(headAsGet());
  app.use(express.json({ limit: config.bodyLimitBytes, strict: true, type: 'application/json' }));
  app.use(refuseMalformedJson());
  // The pages problem types name (http/problemPages.ts), beside the spec's paths.
  app.use(problemPages());
  app.use(
    OpenApiValidator.middleware({
      apiSpec: JSON.parse(readFileSync(specPath, 'utf8')),
      validateRequests: { allowUnknownQueryParameters: false },
      validateResponses: options.validateResponses ?? false,
      validateSecurity: false,
      validateFormats: true,
    }),
  );
  // API_SANDBOX only: Tidewater-Simulate, once the validator checked it, kept for the sandbox's data layer.
  if (config.apiSandbox) app.use(simulateHeader());
  // Step 6 (a–e): deadline, authentication, read-your-writes, handler, result filter.
  mountOperations(app, handlers, {
    authenticate,
    beginRequest: (userId) => data.beginRequest(userId),
    deadlineMs: layers.deadlineMs(config),
  });
  app.use(problemHandler(config.retryAfterSeconds));
  return app;
}
