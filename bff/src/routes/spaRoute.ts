/**
 * Everything else that a browser GETs: the built SPA from web-vue/dist. Files are served
 * as they are (hashed assets cached for a year, index.html never cached); any other page
 * path falls back to index.html, so the SPA's history routes survive a reload. index.html
 * carries the SPA's end of the timeout chain as this BFF resolved it (SPA_ABORT_MS and the
 * others: contract/src/servedTimings.ts), so the SPA aborts where this BFF's start-up check
 * expects it to. When the SPA is not built, a small page says so and links the docs.
 */
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { extname, join } from 'node:path';
import express, { Router, type Response } from 'express';
import { withServedTimings, type SpaTimings } from '@tidewater/contract/servedTimings';
import type { BffConfig } from '../config.ts';
import type { BffDeps } from '../deps.ts';

/** The page served when web-vue/dist is missing (no inline script or style: the CSP allows none). */
const notBuiltPage = `<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><title>Tidewater: the app is not built</title></head>
<body>
<main>
<h1>Tidewater</h1>
<p>The web app is not built yet. Run <code>npm run build -w web-vue</code>, then reload this page.</p>
<p>The API and its documentation are available: <a href="/docs">read the API docs</a>.</p>
</main>
</body>
</html>
`;

/** The SPA's static files and history fallback. */
export function spaRoute({ config }: BffDeps): Router {
  const router = Router();
  const indexFile = join(config.webDistDir, 'index.html');
  const timings = spaTimingsOf(config);
  /** The SPA's page with its timings; read per answer, so a rebuilt SPA is served at once. */
  const sendIndex = async (res: Response) => {
    res.setHeader('Cache-Control', 'no-cache');
    res.type('html').send(withServedTimings(await readFile(indexFile, 'utf8'), timings));
  };

  // index.html asked by its name is the page with its timings too, not the file as it is.
  router.get('/index.html', (_req, res, next) => {
    if (!existsSync(indexFile)) return next();
    sendIndex(res).catch(next);
  });

  router.use(
    express.static(config.webDistDir, {
      index: false,
      fallthrough: true,
      setHeaders: (res, path) => {
        res.setHeader(
          'Cache-Control',
          path.includes('/assets/') ? 'public, max-age=31536000, immutable' : 'no-cache',
        );
      },
    }),
  );

  router.get('/{*page}', (req, res, next) => {
    // A missing file (it has an extension and the browser is not navigating to a page) is a 404, not the app.
    if (extname(req.path) !== '' && !String(req.headers.accept ?? '').includes('text/html')) return next();
    res.setHeader('Cache-Control', 'no-cache');
    if (existsSync(indexFile)) return void sendIndex(res).catch(next);
    res.status(200).type('html').send(notBuiltPage);
  });

  return router;
}

/** The SPA's numbers of the timeout chain, as this BFF resolved them. */
function spaTimingsOf(config: Pick<BffConfig, 'spaAbortMs' | 'spaReadBudgetMs' | 'spaSessionCheckMs'>): SpaTimings {
  return { spaAbortMs: config.spaAbortMs, spaReadBudgetMs: config.spaReadBudgetMs, spaSessionCheckMs: config.spaSessionCheckMs };
}
