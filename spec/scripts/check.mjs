/**
 * Fails (exit 1) when spec/generated/ (or the client's copy of the types,
 * client/src/generated/openapi.ts) is not what spec/openapi.yaml and spec/bff.yaml generate
 * (`npm run check -w spec`, run by CI): regenerates into a temporary directory and
 * compares every file byte for byte, in both directions.
 */
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { clientGeneratedDir, generate, generatedDir } from './generate.mjs';

async function readOrNull(filePath) {
  return readFile(filePath, 'utf8').catch(() => null);
}

const freshDir = await mkdtemp(path.join(tmpdir(), 'tidewater-spec-'));
try {
  const fresh = await generate(freshDir, path.join(freshDir, 'client'));
  const committed = await readdir(generatedDir).catch(() => []);
  const names = [...new Set([...fresh, ...committed])].sort();
  const stale = [];
  for (const name of names) {
    const want = await readOrNull(path.join(freshDir, name));
    const have = await readOrNull(path.join(generatedDir, name));
    if (want !== have)
      stale.push(`spec/generated/${name}${want === null ? ' (not generated any more)' : ''}`);
  }
  const clientCopy = await readOrNull(path.join(clientGeneratedDir, 'openapi.ts'));
  if (clientCopy !== (await readOrNull(path.join(freshDir, 'client', 'openapi.ts')))) stale.push('client/src/generated/openapi.ts');
  if (stale.length > 0) {
    console.error(
      `spec/generated/ is out of date; run \`npm run generate -w spec\`:\n  ${stale.join('\n  ')}`,
    );
    process.exitCode = 1;
  } else {
    console.log(`spec/generated/ is up to date (${fresh.length} files).`);
  }
} finally {
  await rm(freshDir, { recursive: true, force: true });
}
