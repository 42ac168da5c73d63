/**
 * Starts the API composed with the layers it is given (main.ts: every resilience layer; the
 * bench's layers-off API: pass-through ones): guard the process (processGuard.ts), load and
 * check the config (the timeout chain), open the database (a connection service,
 * DATABASE_URL, else the embedded PGlite), apply migrations, refuse a PIN_PEPPER that lacks a
 * key id stored verifiers name (pinPepper.ts), export spans when
 * OTEL_EXPORTER_OTLP_ENDPOINT is set, listen, and close everything cleanly on SIGINT/SIGTERM.
 *
 * With API_WORKERS above 1 (adr/0016) this process is a node:cluster primary that serves
 * nothing itself: it forks one worker and, once that one listens (the migrations applied),
 * the others (each runs all of the above and shares the port),
 * starts another when one that was serving ends, forwards SIGTERM/SIGINT to every worker
 * and ends once they all have; a worker that ends before it ever listened ends the whole
 * API (exit 1), since its siblings would meet the same cause.
 */
import cluster, { type Worker } from 'node:cluster';
import { resolve } from 'node:path';
import type { Logger } from 'pino';
import { ConfigError, loadConfig, type ServerConfig } from './config.ts';
import { composeApi, type ResilienceLayers } from './app.ts';
import { guardProcess } from './processGuard.ts';
import { signingSecret } from './signingSecret.ts';
import { pinPeppers, refuseMissingPinKeysWhenReadable } from './pinPepper.ts';
import { answerClientError } from './http/requestShape.ts';
import { serverLogger, startMetricsListener, startTracing, stopOnSignals } from '@tidewater/contract/http';
import { clusterMetrics, registry, shareWithClusterPrimary } from './metrics.ts';

/** How long the primary gives its workers to end after SIGTERM before it kills them. */
const WORKER_STOP_GRACE_MS = 10_000;

async function serve(config: ServerConfig, layers: ResilienceLayers, logger: Logger): Promise<void> {
  const stopTracing = await startTracing('tidewater-api', logger);
  const secret = signingSecret(config, logger);
  const peppers = pinPeppers(config, logger);
  const { app, database, applied } = await composeApi(layers, { config, logger, signingSecret: secret, pinPeppers: peppers, validateResponses: process.env.VALIDATE_RESPONSES === '1' });
  logger.info({ applied, kind: database.kind }, 'database ready');
  await refuseMissingPinKeysWhenReadable(database.prisma, peppers, logger, (error) => {
    logger.fatal(`stopping: ${error.message}`);
    process.exit(1);
  }).catch(async (error: unknown) => {
    await database.close().catch(() => {});
    throw error;
  });
  // A worker's metrics are served by the primary, summed over the workers (metrics.ts).
  if (cluster.isWorker) shareWithClusterPrimary();
  else if (config.apiMetricsPort > 0) await startMetricsListener(registry, { host: config.apiMetricsHost, port: config.apiMetricsPort, logger });
  const server = app.listen(config.apiPort, config.apiHost, () => {
    const where = { url: `http://${config.apiHost}:${config.apiPort}`, metrics: metricsUrl(config), database: databasePlace(config) };
    logger.info({ host: config.apiHost, port: config.apiPort, ...where }, `API listening on ${where.url} · metrics ${where.metrics} · database: ${where.database}`);
  });
  server.requestTimeout = 0;
  server.on('clientError', answerClientError);
  stopOnSignals(server, logger, () => Promise.allSettled([database.close(), stopTracing()]));
}

/** Where `/metrics` is served (by the primary when there are workers), or that it is off. */
const metricsUrl = (config: ServerConfig) => (config.apiMetricsPort > 0 ? `http://${config.apiMetricsHost}:${config.apiMetricsPort}/metrics` : 'off');

/** The database for the start line: its hosts without credentials, or the embedded one's folder. */
function databasePlace(config: ServerConfig): string {
  if (config.databaseUrl) {
    // Everything up to the last @ goes: a password may hold any character, even ? or /.
    const afterScheme = config.databaseUrl.replace(/^[a-z]+:\/\//i, '');
    return `PostgreSQL ${afterScheme.slice(afterScheme.lastIndexOf('@') + 1).split('?')[0]}`;
  }
  if (config.dbConnectionApiUrl) return `PostgreSQL from the connection service at ${URL.parse(config.dbConnectionApiUrl)?.host ?? 'DB_CONNECTION_API_URL'}`;
  return config.dataDir === 'memory://' ? 'embedded PGlite in memory' : `embedded PGlite in ${resolve(config.dataDir)}`;
}

async function runPrimary(config: ServerConfig, log: Logger): Promise<void> {
  const count = config.apiWorkers;
  const listened = new Set<number>();
  let stopping: number | undefined;
  const live = () => Object.values(cluster.workers ?? {}).filter((w): w is Worker => w !== undefined);
  const stopAll = (exitCode: number) => {
    if (stopping !== undefined) return;
    stopping = exitCode;
    for (const worker of live()) worker.process.kill('SIGTERM');
    setTimeout(() => {
      for (const worker of live()) worker.process.kill('SIGKILL');
      process.exit(exitCode);
    }, WORKER_STOP_GRACE_MS).unref();
    if (live().length === 0) process.exit(exitCode);
  };
  // The first worker migrates the database before it listens; the others start once it
  // listens, so they find the migrations applied. Migrating side by side relies on
  // node-pg-migrate's session advisory lock, which a transaction pooler does not keep
  // (adr/0060): two workers behind PgBouncer both created the schema.
  cluster.on('listening', (worker) => {
    const first = listened.size === 0;
    listened.add(worker.id);
    if (first && stopping === undefined) for (let i = 1; i < count; i++) cluster.fork();
  });
  cluster.on('exit', (worker, code, signal) => {
    if (stopping !== undefined) {
      if (live().length === 0) process.exit(stopping);
      return;
    }
    if (!listened.has(worker.id)) {
      log.fatal({ workerPid: worker.process.pid, code, signal }, 'an API worker ended before it listened: stopping the API');
      stopAll(1);
      return;
    }
    log.error({ workerPid: worker.process.pid, code, signal }, 'an API worker ended: starting another');
    cluster.fork();
  });
  for (const signal of ['SIGTERM', 'SIGINT'] as const) {
    process.once(signal, () => {
      log.info({ signal, workers: live().length }, 'shutting down the workers');
      stopAll(0);
    });
  }
  log.info({ workers: count }, 'starting API workers');
  cluster.fork();
  if (config.apiMetricsPort > 0) await startMetricsListener(clusterMetrics(), { host: config.apiMetricsHost, port: config.apiMetricsPort, logger: log });
}

/** Runs the API with `layers` in this process (and its cluster workers); exits 1 when it cannot start. */
export function serveApi(layers: ResilienceLayers): void {
  const role = cluster.isPrimary ? {} : { worker: cluster.worker!.id };
  const logger = serverLogger('tidewater-api', { pid: process.pid, ...role });
  guardProcess(logger);
  const start = async () => {
    const config = loadConfig();
    if (cluster.isPrimary && config.apiWorkers > 1) return runPrimary(config, logger);
    return serve(config, layers, logger);
  };
  start().catch((error: unknown) => {
    if (error instanceof ConfigError) logger.fatal(`refusing to start: ${error.message}`);
    else logger.fatal({ err: error }, 'the API could not start');
    process.exit(1);
  });
}
