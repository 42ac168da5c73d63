/**
 * The package integrators install (scripts/pack.mjs, adr/0059): its version is the API's
 * `info.version`, the docs' install command names that tarball, and the tarball holds
 * compiled JavaScript with its declarations and depends on nothing of this workspace.
 * (scripts/outsideProject.ts installs it into an empty folder and runs the docs' program.)
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parse } from 'yaml';
import { afterAll, describe, expect, it } from 'vitest';

const clientDir = fileURLToPath(new URL('..', import.meta.url));
const { info } = parse(readFileSync(join(clientDir, '../spec/openapi.yaml'), 'utf8')) as { info: { version: string; description: string } };

describe('the packed client', () => {
  const outDir = mkdtempSync(join(tmpdir(), 'tidewater-pack-'));
  afterAll(() => rmSync(outDir, { recursive: true, force: true }));

  it("carries the API's version, in the workspace and in the docs' install command", () => {
    expect(JSON.parse(readFileSync(join(clientDir, 'package.json'), 'utf8')).version).toBe(info.version);
    expect(info.description).toContain(`npm install http://localhost:8080/docs/client/tidewater-client-${info.version}.tgz`);
  });

  it('packs compiled JavaScript and declarations that need only openapi-fetch', () => {
    const tarball = execFileSync(process.execPath, [join(clientDir, 'scripts/pack.mjs'), '--out', outDir], { encoding: 'utf8' }).trim().split('\n').at(-1)!;
    expect(tarball).toBe(join(outDir, `tidewater-client-${info.version}.tgz`));
    const files = execFileSync('tar', ['-tzf', tarball], { encoding: 'utf8' }).trim().split('\n').sort();
    expect(files).toEqual(expect.arrayContaining(['package/index.js', 'package/index.d.ts', 'package/moneySend.js', 'package/generated/openapi.d.ts', 'package/package.json']));
    expect(files.filter((file) => file.endsWith('.ts') && !file.endsWith('.d.ts'))).toEqual([]);
    const manifest = JSON.parse(execFileSync('tar', ['-xzOf', tarball, 'package/package.json'], { encoding: 'utf8' }));
    expect(manifest).toMatchObject({ name: '@tidewater/client', version: info.version, exports: { '.': { types: './index.d.ts', default: './index.js' } } });
    expect(Object.keys(manifest.dependencies)).toEqual(['openapi-fetch']);
    // What each file imports: the JavaScript only its compiled siblings and openapi-fetch (never a .ts
    // source), the declarations their siblings (tsc keeps their `.ts` names, which a consumer's tsc
    // resolves to the .d.ts) and openapi-fetch: nothing of this workspace.
    const importsOf = (kind: RegExp) =>
      files.filter((file) => kind.test(file)).flatMap((file) => [...execFileSync('tar', ['-xzOf', tarball, file], { encoding: 'utf8' }).matchAll(/from ["']([^"']+)["']/g)].map((match) => match[1]!));
    expect(importsOf(/\.js$/).filter((specifier) => !/^(\.\/[\w/]+\.js|openapi-fetch)$/.test(specifier))).toEqual([]);
    expect(importsOf(/\.d\.ts$/).filter((specifier) => !/^(\.\/[\w/]+\.ts|openapi-fetch)$/.test(specifier))).toEqual([]);
    expect(importsOf(/\.d\.ts$/)).toContain('openapi-fetch');
  });
});
