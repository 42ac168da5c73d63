/**
 * `/docs`: the rendered Redocly docs (`npm run docs -w spec` writes spec/docs/index.html),
 * under their own Content-Security-Policy: the page's inline scripts are allowed by their
 * SHA-256 hashes, computed from the file whenever it changes. When the file is missing:
 * 503 saying the docs are not built and how to build them. Beside them: the document itself
 * (`/docs/openapi.yaml`, written next to index.html by the same build), the error reference
 * (`/docs/problems`) and the page each problem `type` names (`/docs/problems/<code>`),
 * made from the one catalog (contract/src/problemPages.ts).
 */
import { createHash } from 'node:crypto';
import { readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import { errorReferencePage, problemPage } from '@tidewater/contract/problemPages';
import { Router } from 'express';
import type { BffDeps } from '../deps.ts';
import { answerProblem, answerUnavailable } from '../http/problem.ts';
import { docsContentSecurityPolicy } from '../http/securityHeaders.ts';

/** The base64 SHA-256 of each inline (no `src`) script of an HTML page. */
export function inlineScriptHashes(html: string): string[] {
  const hashes: string[] = [];
  for (const match of html.matchAll(/<script(\s[^>]*)?>([\s\S]*?)<\/script>/gi)) {
    if (/\ssrc\s*=/i.test(match[1] ?? '')) continue;
    hashes.push(
      createHash('sha256')
        .update(match[2] ?? '', 'utf8')
        .digest('base64'),
    );
  }
  return [...new Set(hashes)];
}

/** The docs route. */
export function docsRoute({ config }: BffDeps): Router {
  const router = Router();
  let cached: { mtimeMs: number; html: Buffer; policy: string } | undefined;

  router.get('/docs/openapi.yaml', async (req, res) => {
    const file = path.join(path.dirname(config.docsFile), 'openapi.yaml');
    const yaml = await readFile(file).catch(() => undefined);
    if (!yaml) {
      req.log.warn({ file }, 'the API document is not built beside the docs');
      return answerUnavailable(res, 'The API docs are not built. Run `npm run docs -w spec`, then reload.', config.retryAfterSeconds);
    }
    res.setHeader('Cache-Control', 'no-cache');
    res.type('application/yaml').send(yaml);
  });

  router.get('/docs/problems', (_req, res) => {
    res.type('html').send(errorReferencePage());
  });

  router.get('/docs/problems/:slug', (req, res) => {
    const html = problemPage(req.params.slug);
    if (html === undefined) return answerProblem(res, 'NOT_FOUND', 'No error code has this page; /docs/problems lists them all.');
    res.type('html').send(html);
  });

  // Redoc's own links are under /docs/ (its base path, spec/scripts/docs.mjs): each is the same page.
  router.get(['/docs', '/docs/*section'], async (req, res) => {
    const file = await stat(config.docsFile).catch(() => undefined);
    if (!file?.isFile()) {
      req.log.warn({ docsFile: config.docsFile }, 'the API docs are not built');
      return answerUnavailable(
        res,
        'The API docs are not built. Run `npm run docs -w spec`, then reload.',
        config.retryAfterSeconds,
      );
    }
    if (cached?.mtimeMs !== file.mtimeMs) {
      const html = await readFile(config.docsFile);
      cached = {
        mtimeMs: file.mtimeMs,
        html,
        policy: docsContentSecurityPolicy(inlineScriptHashes(html.toString('utf8'))),
      };
    }
    res.setHeader('Content-Security-Policy', cached.policy);
    res.setHeader('Cache-Control', 'no-cache');
    res.type('html').send(cached.html);
  });

  return router;
}
