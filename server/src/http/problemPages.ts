/**
 * The pages problem `type`s name (`/docs/problems` and `/docs/problems/<code>`,
 * contract/src/problemPages.ts), served by the API too, so a `type` resolves against the API's
 * own address as RFC 9457 resolves a relative reference. Plain HTML under the API's strict
 * CSP (no script, no style); an unknown code goes on to the validator's 404.
 */
import { Router } from 'express';
import { errorReferencePage, problemPage } from '@tidewater/contract/problemPages';

/** The two routes, before the validator (which knows only the spec's paths). */
export function problemPages(): Router {
  const router = Router();
  router.get('/docs/problems', (_req, res) => {
    res.type('html').send(errorReferencePage());
  });
  router.get('/docs/problems/:slug', (req, res, next) => {
    const html = problemPage(req.params.slug);
    if (html === undefined) return next();
    res.type('html').send(html);
  });
  return router;
}
