/**
 * Starts the API: guard the process (processGuard.ts), load and check the config (the timeout chain), open the database
 * (a connection service, DATABASE_URL, else the embedded PGlite), apply migrations, export spans when
 * OTEL_EXPORTER_OTLP_ENDPOINT is set, listen, and close
 * everything cleanly on SIGINT/SIGTERM.
 */
import { pino } from 'pino';
import { ConfigError, loadConfig, resilienceOff } from './config.ts';
import { openBankDatabase } from './data/connections/index.ts';
import { createApp } from './app.ts';
import { guardProcess } from './processGuard.ts';
import { signingSecret } from './signingSecret.ts';
import { answerClientError } from './http/requestShape.ts';
import { startMetricsListener, startTracing, stopOnSignals } from '@tidewater/contract/http';
import { registry } from './metrics.ts';

const logger = pino({ level: process.env.LOG_LEVEL ?? 'info', base: { service: 'tidewater-api' } });
guardProcess(logger);

async function main(): Promise<void> {
  const config = loadConfig();
  const stopTracing = await startTracing('tidewater-api', logger);
  if (resilienceOff(config)) {
    logger.warn('BENCH_RESILIENCE=off: NO request deadline, commit gate, cancellable client, retry policy or readiness gate. For `npm run bench` only; never serve customers like this.');
  }
  const secret = signingSecret(config, logger);
  const { database, applied } = await openBankDatabase(config, logger);
  logger.info({ applied, kind: database.kind }, 'database ready');
  const app = createApp({ config, database, logger, signingSecret: secret, validateResponses: process.env.VALIDATE_RESPONSES === '1' });
  if (config.apiMetricsPort > 0) await startMetricsListener(registry, { host: config.apiMetricsHost, port: config.apiMetricsPort, logger });
  const server = app.listen(config.apiPort, config.apiHost, () => logger.info({ host: config.apiHost, port: config.apiPort }, 'API listening'));
  server.requestTimeout = 0;
  server.on('clientError', answerClientError);
  stopOnSignals(server, logger, () => Promise.allSettled([database.close(), stopTracing()]));
}

main().catch((error: unknown) => {
  if (error instanceof ConfigError) logger.fatal(`refusing to start: ${error.message}`);
  else logger.fatal({ err: error }, 'the API could not start');
  process.exit(1);
});
