/**
 * Starts the BFF: load and check the config, export spans when OTEL_EXPORTER_OTLP_ENDPOINT is
 * set, open the session store, listen, and close
 * everything cleanly on SIGINT/SIGTERM. Refuses to start (exit 1) when the config cannot
 * work or the session store cannot be opened.
 */
import { randomBytes } from 'node:crypto';
import { BffConfigError, loadConfig } from './config.ts';
import { createApp } from './app.ts';
import { answerClientError } from './http/requestShape.ts';
import { serverLogger, startMetricsListener, startTracing, stopOnSignals } from '@tidewater/contract/http';
import { registry } from './metrics.ts';
import { openSessionStore } from './session/sessionStore.ts';
import { createApiClient } from './upstream/apiClient.ts';
import { createRenewals } from './upstream/renewals.ts';
import { refreshWithApi, revokeWithApi } from './upstream/tokenCalls.ts';

const logger = serverLogger('tidewater-bff');

async function main(): Promise<void> {
  const config = loadConfig();
  const stopTracing = await startTracing('tidewater-bff', logger);
  if (config.sessionSecretGenerated)
    logger.warn("SESSION_SECRET is unset: a random one signs this process's cookies");
  const api = createApiClient(config.apiUrl);
  // A pruned session's refresh token is revoked in the background; a failure leaves it to its family's end (adr/0045).
  const sessionStore = await openSessionStore(config, logger, (refreshToken) =>
    void revokeWithApi(api, refreshToken, randomBytes(16).toString('hex'), config.revokeTimeoutMs).then((outcome) => {
      if (outcome.kind !== 'revoked') logger.warn({ detail: outcome.detail }, 'a pruned session\'s refresh token could not be revoked');
    }),
  );
  const renewals = createRenewals(refreshWithApi(api, config.renewalTimeoutMs), config.renewalReuseMs);
  const app = createApp({ config, logger, api, renewals, sessionStore });
  if (config.metricsPort > 0) await startMetricsListener(registry, { host: config.metricsHost, port: config.metricsPort, logger });
  const server = app.listen(config.port, config.host, () => {
    const url = `http://${config.host}:${config.port}`;
    const metrics = config.metricsPort > 0 ? `http://${config.metricsHost}:${config.metricsPort}/metrics` : 'off';
    logger.info(
      {
        host: config.host,
        port: config.port,
        url,
        metrics,
        apiUrl: config.apiUrl,
        sessions: sessionStore.kind,
        upstreamTimeoutMs: config.upstreamTimeoutMs,
        sessionIdleTimeoutMs: config.sessionIdleTimeoutMs,
      },
      `BFF listening on ${url} (the SPA; API docs ${url}/docs) · API ${config.apiUrl} · sessions: ${sessionStore.kind} · metrics ${metrics}`,
    );
  });
  server.on('clientError', answerClientError);
  server.on('error', (error) => {
    logger.fatal({ err: error }, 'the BFF could not listen');
    process.exit(1);
  });
  stopOnSignals(server, logger, () => Promise.allSettled([api.close(), sessionStore.close(), stopTracing()]));
}

main().catch((error: unknown) => {
  if (error instanceof BffConfigError) logger.fatal(`refusing to start: ${error.message}`);
  else logger.fatal({ err: error }, 'the BFF could not start');
  process.exit(1);
});
