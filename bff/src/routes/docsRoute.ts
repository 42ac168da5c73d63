/**
 * `/docs`: the rendered Redocly docs (`npm run docs -w spec` writes spec/docs/index.html),
 * under their own Content-Security-Policy: the page's inline scripts are allowed by their
 * SHA-256 hashes, computed from the file whenever it changes. When the file is missing:
 * 503 saying the docs are not built and how to build them. Beside them: the document itself
 * (`/docs/openapi.yaml`, written next to index.html by the same build), the error reference
 * (`/docs/problems`) and the page each problem `type` names (`/docs/problems/<code>`),
 * made from the one catalog (contract/src/problemPages.ts); the API's changelog
 * (`/docs/CHANGELOG.md`) and the official client's tarball
 * (`/docs/client/tidewater-client-<version>.tgz`), both written beside index.html by the same
 * build. Any other path under /docs is a 404 problem: the docs serve only what they have.
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

/** The files the docs' build writes beside index.html, by the path they are served at, with their media type. */
const builtFiles: Record<string, string> = {
  '/docs/openapi.yaml': 'application/yaml',
  '/docs/CHANGELOG.md': 'text/markdown; charset=utf-8',
};
/** The client's tarball: one name per version, nothing else under /docs/client. */
const clientTarball = /^tidewater-client-\d+\.\d+\.\d+\.tgz$/;
/** Redoc's own links (its history router under /docs/): each is the same page. */
const docsPages = ['/docs', '/docs/section/*rest', '/docs/tag/*rest', '/docs/operation/*rest', '/docs/schema/*rest'];

/** The docs route. */
export function docsRoute({ config }: BffDeps): Router {
  const router = Router();
  const docsDir = path.dirname(config.docsFile);
  let cached: { mtimeMs: number; html: Buffer; policy: string } | undefined;

  router.get(Object.keys(builtFiles), async (req, res, next) => {
    // Express matches paths case-insensitively; the files are named in one case only.
    const mediaType = builtFiles[req.path];
    if (!mediaType) return next();
    const file = path.join(docsDir, path.basename(req.path));
    const content = await readFile(file).catch(() => undefined);
    if (!content) {
      req.log.warn({ file }, 'a file of the docs is not built beside them');
      return answerUnavailable(res, 'The API docs are not built. Run `npm run docs -w spec`, then reload.', config.retryAfterSeconds);
    }
    res.setHeader('Cache-Control', 'no-cache');
    res.type(mediaType).send(content);
  });

  router.get('/docs/client/:file', async (req, res) => {
    const { file } = req.params;
    const content = clientTarball.test(file) ? await readFile(path.join(docsDir, 'client', file)).catch(() => undefined) : undefined;
    if (!content) return answerProblem(res, 'NOT_FOUND', 'No such client package; the docs\' introduction names the one of this version.');
    res.setHeader('Cache-Control', 'no-cache');
    res.type('application/gzip').send(content);
  });

  router.get('/docs/problems', (_req, res) => {
    res.type('html').send(errorReferencePage());
  });

  router.get('/docs/problems/:slug', (req, res) => {
    const html = problemPage(req.params.slug);
    if (html === undefined) return answerProblem(res, 'NOT_FOUND', 'No error code has this page; /docs/problems lists them all.');
    res.type('html').send(html);
  });

  router.get(docsPages, async (req, res) => {
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

  router.get('/docs/*rest', (_req, res) => {
    answerProblem(res, 'NOT_FOUND', 'The docs have no such page: /docs, /docs/openapi.yaml, /docs/problems and /docs/CHANGELOG.md are what they serve.');
  });

  return router;
}
