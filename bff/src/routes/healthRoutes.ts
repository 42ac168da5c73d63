/**
 * `GET /bff/health`: the BFF process answers (no session, no API call).
 * `GET /bff/ready`: the BFF can serve: the API's `/api/ready` answers 200 within 3 s and
 * the session store answers within 3 s; otherwise 503 naming which one.
 */
import { Router } from 'express';
import type { BffDeps } from '../deps.ts';
import { answerUnavailable, upstreamTraceOf } from '../http/problem.ts';

/** The two probes. */
export function healthRoutes({ api, config, sessionStore }: BffDeps): Router {
  const router = Router();

  router.get('/bff/health', (_req, res) => {
    res.setHeader('Cache-Control', 'no-store');
    res.status(200).json({ status: 'ok' });
  });

  router.get('/bff/ready', async (_req, res) => {
    const timeoutMs = config.healthProbeTimeoutMs;
    const [apiReady, storeReady] = await Promise.all([
      api
        .call({ ...upstreamTraceOf(res), timeoutMs }, (client, init) => client.GET('/api/ready', init))
        .then((result) => result.kind === 'answer' && result.status === 200),
      sessionStore.ping(timeoutMs).then(
        () => true,
        () => false,
      ),
    ]);
    if (apiReady && storeReady) {
      res.setHeader('Cache-Control', 'no-store');
      res.status(200).json({ status: 'ready' });
      return;
    }
    const notReady = [
      apiReady ? '' : 'the API is not ready',
      storeReady ? '' : 'the session store is not reachable',
    ].filter(Boolean);
    answerUnavailable(res, `Not ready: ${notReady.join(' and ')}.`, config.retryAfterSeconds);
  });

  return router;
}
