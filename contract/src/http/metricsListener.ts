/**
 * The metrics listener of both tiers (adr/0017): `GET /metrics` in Prometheus's text format
 * on a port of its own (API_METRICS_HOST:API_METRICS_PORT, BFF_METRICS_HOST:BFF_METRICS_PORT,
 * loopback by default), so neither the API's port nor the BFF's public port ever serves it.
 * Anything else is a 404. A port that cannot be bound is logged and the tier goes on
 * serving: metrics are never worth an outage.
 */
import { createServer, type Server } from 'node:http';

/** What the listener needs of a prom-client Registry. */
interface Scrapeable {
  metrics(): Promise<string>;
  readonly contentType: string;
}

/** The logger shape it needs; a pino logger fits. */
interface ListenerLogger {
  info(obj: object, msg: string): void;
  error(obj: object, msg: string): void;
}

/** Listens for scrapes of `registry`; resolves once listening (or once the failure is logged). */
export function startMetricsListener(registry: Scrapeable, options: { host: string; port: number; logger: ListenerLogger }): Promise<Server> {
  const { host, port, logger } = options;
  const server = createServer((req, res) => {
    const path = (req.url ?? '').split('?')[0];
    if ((req.method !== 'GET' && req.method !== 'HEAD') || path !== '/metrics') {
      res.writeHead(404, { 'content-type': 'text/plain; charset=utf-8' }).end('not found: GET /metrics\n');
      return;
    }
    registry.metrics().then(
      (text) => {
        res.writeHead(200, { 'content-type': registry.contentType, 'cache-control': 'no-store' });
        res.end(req.method === 'HEAD' ? undefined : text);
      },
      (error: unknown) => {
        logger.error({ err: error }, 'could not collect the metrics');
        res.writeHead(500, { 'content-type': 'text/plain; charset=utf-8' }).end('could not collect the metrics\n');
      },
    );
  });
  return new Promise((resolve) => {
    server.once('error', (error) => {
      logger.error({ err: error, host, port }, 'the metrics listener could not start; serving without /metrics');
      resolve(server);
    });
    server.listen(port, host, () => {
      logger.info({ host, port, path: '/metrics' }, 'metrics listening');
      resolve(server);
    });
  });
}
