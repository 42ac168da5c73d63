/**
 * Fuzzes the running API with schemathesis (from PyPI) against spec/openapi.yaml, with
 * every default check, authenticated as a freshly registered customer. The API runs on
 * DATABASE_URL when given (CI: a throwaway PostgreSQL), else on a temporary PGlite.
 * Every operation of the spec is fuzzed.
 *
 * Usage: npx tsx contract-tests/schemathesis/run.ts [--max-examples N]
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startApi } from '../../server/test/support/apiProcess.ts';
import { call } from '../../server/test/support/httpClient.ts';

const root = fileURLToPath(new URL('../..', import.meta.url));
const maxExamples = process.argv.includes('--max-examples') ? process.argv[process.argv.indexOf('--max-examples') + 1]! : '30';

const dataDir = process.env.DATABASE_URL ? undefined : mkdtempSync(join(tmpdir(), 'tidewater-fuzz-'));
const api = await startApi({ ...(dataDir ? { DATA_DIR: dataDir } : {}), VALIDATE_RESPONSES: '1', LOG_LEVEL: 'warn' });
let exitCode = 1;
try {
  const visitor = { email: `fuzz${Date.now()}@example.com`, password: 'correct horse battery', displayName: 'Fuzz', handle: `fuzz${Date.now() % 1e9}`, pin: '2468' };
  const registered = await call(api.url, 'POST', '/api/auth/register', { body: visitor });
  if (registered.status !== 201) throw new Error(`could not register the fuzzing customer: ${registered.status}`);
  const token = await call(api.url, 'POST', '/api/auth/token', { body: { email: visitor.email, password: visitor.password } });
  const args = [
    '--config-file', join(root, 'contract-tests/schemathesis/schemathesis.toml'),
    'run',
    join(root, 'spec/openapi.yaml'),
    '--url', api.url,
    '--header', `Authorization: Bearer ${token.body.accessToken}`,
    '--checks', 'all',
    '--max-examples', maxExamples,
    // One worker: with two, schemathesis 4.32's coverage phase parses Python source from two
    // threads at once and CPython 3.11 fails ("AST constructor recursion depth mismatch").
    '--workers', '1',
    '--request-timeout', '30',
  ];
  console.log(`schemathesis ${args.filter((a) => !a.startsWith('Authorization')).join(' ')}`);
  const run = spawnSync('schemathesis', args, { stdio: 'inherit', cwd: root });
  exitCode = run.status ?? 1;
  const serverErrors = api.logLines.filter((line) => /"statusCode":5\d\d|"level":50/.test(line));
  if (serverErrors.length > 0) {
    console.error(`the API logged ${serverErrors.length} server error(s) while the database was healthy:\n${serverErrors.slice(0, 5).join('\n')}`);
    exitCode = exitCode || 1;
  }
} finally {
  await api.stop();
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
}
process.exit(exitCode);
