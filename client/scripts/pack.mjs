/**
 * Packs the official client for integrators outside this repository (`npm run pack -w client`;
 * the docs' build runs it): tsc compiles client/src to JavaScript and declarations in
 * client/dist/package, beside a package.json made for that folder (its version is the API's
 * `info.version`, its one dependency openapi-fetch, its entry the compiled index.js), then
 * `npm pack` writes tidewater-client-<version>.tgz into the folder given (`--out`, default
 * client/dist). The workspace's own package.json keeps pointing at the TypeScript sources,
 * which the repository's tests and tools import directly. Prints the tarball's path.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { parse } from 'yaml';

const clientDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const stageDir = path.join(clientDir, 'dist/package');
const { values } = parseArgs({ options: { out: { type: 'string', default: path.join(clientDir, 'dist') } } });
const outDir = path.resolve(values.out);

const workspacePackage = JSON.parse(readFileSync(path.join(clientDir, 'package.json'), 'utf8'));
const { version } = parse(readFileSync(path.join(clientDir, '../spec/openapi.yaml'), 'utf8')).info;

rmSync(stageDir, { recursive: true, force: true });
const tsc = path.join(clientDir, '../node_modules/typescript/bin/tsc');
execFileSync(process.execPath, [tsc, '-p', path.join(clientDir, 'tsconfig.build.json')], { stdio: 'inherit' });

const published = {
  name: workspacePackage.name,
  version,
  description: "The official client of the Tidewater Bank API: openapi-fetch on the API's types, and moneySend, a money send under the docs' rules of keys, waits and unknown outcomes.",
  license: 'UNLICENSED',
  type: 'module',
  exports: { '.': { types: './index.d.ts', default: './index.js' } },
  engines: { node: '>=20' },
  dependencies: { 'openapi-fetch': workspacePackage.dependencies['openapi-fetch'] },
};
writeFileSync(path.join(stageDir, 'package.json'), `${JSON.stringify(published, null, 2)}\n`);
writeFileSync(
  path.join(stageDir, 'README.md'),
  `# ${published.name} ${version}\n\nThe official client of the Tidewater Bank API ${version}: \`createTidewaterClient\` (openapi-fetch on the API's types) and \`moneySend\` (one Idempotency-Key on every try, Retry-After honoured, an unknown outcome read from the key). The API's docs (\`/docs\`) show a whole program.\n`,
);

mkdirSync(outDir, { recursive: true });
const [packed] = JSON.parse(execFileSync('npm', ['pack', '--json', '--pack-destination', outDir], { cwd: stageDir, encoding: 'utf8' }));
console.log(path.join(outDir, packed.filename));
