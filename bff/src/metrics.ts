/**
 * The BFF's metrics (adr/0017-metrics.md): every metric name of this tier and one small
 * function per event, called in one line where it happens. Served on a listener of its own
 * (BFF_METRICS_HOST:BFF_METRICS_PORT, `/metrics`, loopback by default), never on the public
 * port; the /api proxy never forwards /metrics to the API either (it is not an /api path).
 *
 * Labels are bounded: a route is the Express route that matched, or `api:<operationId>`
 * for a proxied call (from the spec's operations), never a URL; causes and outcomes come
 * from the fixed lists below.
 */
import type { Request, RequestHandler, Response } from 'express';
import { collectDefaultMetrics, Counter, Histogram, Registry } from 'prom-client';
import { operations } from '@tidewater/spec/operations';

/** The process's registry: what `/metrics` serves. */
export const registry = new Registry();
collectDefaultMetrics({ register: registry });

/** Why the BFF answered 503; `api` is the API's own 503 passed through. */
export type BffUnavailableCause = 'upstream_timeout' | 'upstream_unreachable' | 'renewal' | 'session_store' | 'api' | 'bff_other';

/** The names, in one place (README "Metrics"). */
export const bffMetricNames = {
  requestDuration: 'tidewater_bff_http_request_duration_seconds',
  unavailable: 'tidewater_bff_unavailable_total',
  renewals: 'tidewater_bff_renewals_total',
} as const;

const registers = [registry];
const requestDuration = new Histogram({
  name: bffMetricNames.requestDuration,
  help: 'BFF requests by route (api:<operationId> for the proxy) and status (499: the visitor hung up), in seconds.',
  labelNames: ['route', 'status'],
  buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 20, 40, 60],
  registers,
});
const unavailable = new Counter({ name: bffMetricNames.unavailable, help: 'Answers 503, by cause (api: the API answered 503 itself).', labelNames: ['cause'], registers });
const renewals = new Counter({
  name: bffMetricNames.renewals,
  help: "Access-token renewals, by outcome (renewed, refused: the session ended, unavailable, shared: joined another request's renewal, late: not back within BFF_RENEWAL_WAIT_MS).",
  labelNames: ['outcome'],
  registers,
});

/** A renewal ended in `outcome`. */
export function countRenewal(outcome: 'renewed' | 'refused' | 'unavailable' | 'shared' | 'late'): void {
  renewals.inc({ outcome });
}

/** Names why this request answers 503 (the first note wins). */
export function noteUnavailable(res: Response, cause: BffUnavailableCause): void {
  res.locals.unavailableCause ??= cause;
}

/** The API's operations as matchers, so a proxied call is labelled by its operationId. */
const apiRoutes = Object.entries(operations).map(([operationId, operation]) => ({
  operationId,
  method: operation.method,
  pattern: new RegExp(`^${operation.expressPath.replace(/:[A-Za-z]+/g, '[^/]+')}$`),
}));

/** The route label: the Express route, `api:<operationId>`, or one of a few fixed names. */
function routeOf(req: Request): string {
  const path = (req.originalUrl ?? '').split('?')[0] ?? '';
  if (path.startsWith('/api/')) {
    const found = apiRoutes.find((route) => route.method === req.method && route.pattern.test(path));
    return found ? `api:${found.operationId}` : 'api:unknown';
  }
  const route = (req as Request & { route?: { path?: unknown } }).route;
  if (route && typeof route.path === 'string') return `${req.baseUrl}${route.path}`;
  if (path.startsWith('/bff/')) return 'bff:unknown';
  return 'static';
}

/** The middleware: first in the chain, so every answer is timed. */
export function requestMetrics(): RequestHandler {
  return (req, res, next) => {
    const startedAt = performance.now();
    res.once('close', () => {
      const status = res.writableFinished ? res.statusCode : 499;
      requestDuration.observe({ route: routeOf(req), status: String(status) }, (performance.now() - startedAt) / 1000);
      if (status === 503) unavailable.inc({ cause: (res.locals.unavailableCause as BffUnavailableCause | undefined) ?? 'api' });
    });
    next();
  };
}
