/**
 * Builds the rendered docs (`npm run docs -w spec`): spec/docs/index.html from the document
 * with its generated code samples (codeSamples.mjs), and spec/docs/openapi.yaml, the
 * document as written, for download. Redoc's own telemetry is off; the page loads nothing
 * from a CDN (its scripts inlined, its logo removed); its links are under `/docs/` (its base
 * path), which the BFF answers with the same page, so one opened in a new tab lands on the
 * docs again, not on the web app.
 */
import { execFileSync } from 'node:child_process';
import { copyFileSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parse } from 'yaml';
import { withCodeSamples } from './codeSamples.mjs';

const specDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const docsDir = path.join(specDir, 'docs');
const source = path.join(specDir, 'openapi.yaml');
const withSamples = path.join(docsDir, 'openapi.samples.json');

mkdirSync(docsDir, { recursive: true });
writeFileSync(withSamples, JSON.stringify(withCodeSamples(parse(readFileSync(source, 'utf8')))));
const redocly = path.join(specDir, '../node_modules/@redocly/cli/bin/cli.js');
execFileSync(
  process.execPath,
  [redocly, 'build-docs', withSamples, '--inlineBundle', '--openapi.disableTelemetry=true', '--openapi.router=history', '--openapi.basePath=/docs', '--title', 'Tidewater Bank API', '-o', path.join(docsDir, 'index.html')],
  { cwd: specDir, stdio: 'inherit', env: { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true' } },
);
// Redoc's attribution draws its logo from Redocly's CDN, which the docs' CSP refuses (a console
// error on every load): pointed at nothing, the image's own error handler hides it.
const page = path.join(docsDir, 'index.html');
// Its prerendered links ignore the base path the page then routes under: they are written under /docs/ too.
writeFileSync(
  page,
  readFileSync(page, 'utf8')
    .replace(/https:\/\/cdn\.redoc\.ly\/redoc\/logo-mini(-full)?\.svg/g, 'data:,')
    .replace(/href="\/(?!docs\/)/g, 'href="/docs/'),
);
copyFileSync(source, path.join(docsDir, 'openapi.yaml'));
