/**
 * Builds the rendered docs (`npm run docs -w spec`): spec/docs/index.html from the document
 * with its generated code samples (codeSamples.mjs); spec/docs/openapi.yaml, the same
 * document with the samples (`x-codeSamples`), for download; spec/docs/CHANGELOG.md, the
 * API's changelog; and spec/docs/client/tidewater-client-<version>.tgz, the official client
 * packed for integrators (client/scripts/pack.mjs). Redoc's own telemetry is off; the page loads nothing
 * from a CDN (its scripts inlined, its logo removed); its links are under `/docs/` (its base
 * path), which the BFF answers with the same page, so one opened in a new tab lands on the
 * docs again, not on the web app.
 */
import { execFileSync } from 'node:child_process';
import { copyFileSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parse, stringify } from 'yaml';
import { withCodeSamples } from './codeSamples.mjs';

const specDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const docsDir = path.join(specDir, 'docs');
const source = path.join(specDir, 'openapi.yaml');
const withSamples = path.join(docsDir, 'openapi.samples.json');

mkdirSync(docsDir, { recursive: true });
const document = withCodeSamples(parse(readFileSync(source, 'utf8')));
writeFileSync(withSamples, JSON.stringify(document));
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
writeFileSync(path.join(docsDir, 'openapi.yaml'), stringify(document, { lineWidth: 0 }));
copyFileSync(path.join(specDir, '../CHANGELOG.md'), path.join(docsDir, 'CHANGELOG.md'));
const clientDir = path.join(docsDir, 'client');
rmSync(clientDir, { recursive: true, force: true });
execFileSync(process.execPath, [path.join(specDir, '../client/scripts/pack.mjs'), '--out', clientDir], { stdio: 'inherit' });
