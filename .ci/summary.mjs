// Sums every suite .ci/run ran into its last line, alone on it: `N passed, N failed, N skipped`.
// Reads what each suite left in the results directory (a suite that did not run left nothing):
//   vitest.json, vitest-real-time.json and vitest-npm-postgres.json (Vitest's JSON reporter:
//   `npm test`, the server's real-time files, and the suite on npm's PostgreSQL binaries), playwright.json (Playwright's), schemathesis.log
//   (its "Test cases" line), soak.log (its "soak: N checks passed, M failed" line), bench.log
//   (`npm run bench -- --smoke`: its "bench: N checks passed, M failed" line, one per scenario),
//   failover-sync.log and failover-async.log (the failover drills' soak line), every
//   check-<name>.log (a drill or check that ends with "<name>: N checks passed, M failed"); then
//   the run's exit status and its last step, so that a failed run never reads as clean.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

const [dir, exitStatus = '0', lastStep = ''] = process.argv.slice(2);
const totals = { passed: 0, failed: 0, skipped: 0 };
const parts = [];
const read = (name) => (existsSync(join(dir, name)) ? readFileSync(join(dir, name), 'utf8') : undefined);
const add = (suite, passed, failed, skipped) => {
  totals.passed += passed;
  totals.failed += failed;
  totals.skipped += skipped;
  parts.push(`${suite} ${passed}/${failed}/${skipped}`);
};

for (const [file, suite] of [
  ['vitest.json', 'vitest'],
  ['vitest-real-time.json', 'vitest real-time'],
  ['vitest-npm-postgres.json', "vitest on npm's PostgreSQL"],
]) {
  const vitest = read(file);
  if (!vitest) continue;
  const v = JSON.parse(vitest);
  add(suite, v.numPassedTests, v.numFailedTests, (v.numPendingTests ?? 0) + (v.numTodoTests ?? 0));
}
const playwright = read('playwright.json');
if (playwright) {
  const { stats } = JSON.parse(playwright);
  add('playwright', stats.expected + stats.flaky, stats.unexpected, stats.skipped);
}
const schemathesis = read('schemathesis.log');
if (schemathesis) {
  // "1614 generated, 1614 passed, 20 skipped" or "1587 generated, 1 found 1 unique failure, 20 skipped"
  const line = schemathesis.split('\n').find((text) => /\d+ generated/.test(text)) ?? '';
  const n = (pattern) => Number(pattern.exec(line)?.[1] ?? 0);
  const failed = n(/(\d+) unique failures?/) + n(/(\d+) errored/) + n(/(\d+) failed/);
  const passed = /\d+ passed/.test(line) ? n(/(\d+) passed/) : Math.max(0, n(/(\d+) generated/) - failed);
  add('schemathesis', passed, failed, n(/(\d+) skipped/));
}
const soak = read('soak.log');
if (soak) {
  const match = /soak: (\d+) checks passed, (\d+) failed/.exec(soak);
  add('soak', Number(match?.[1] ?? 0), Number(match?.[2] ?? 1), 0);
}
const bench = read('bench.log');
if (bench) {
  const match = /bench: (\d+) checks passed, (\d+) failed/.exec(bench);
  add('bench smoke', Number(match?.[1] ?? 0), Number(match?.[2] ?? 1), 0);
}
// The failover drills (adr/0019) end with the soak's line; the asynchronous one's loss is reported, not failed.
for (const [file, suite] of [
  ['failover-sync.log', 'failover drill (sync)'],
  ['failover-async.log', 'failover drill (async)'],
]) {
  const drill = read(file);
  if (!drill) continue;
  const match = /soak: (\d+) checks passed, (\d+) failed/.exec(drill);
  add(suite, Number(match?.[1] ?? 0), Number(match?.[2] ?? 1), 0);
  const measured = /failover \((?:a?sync)\): .*/.exec(drill);
  if (measured) console.log(measured[0]);
}
// The drills and checks of the operators' and integrators' setups: one line each, the last such line of the log.
for (const file of readdirSync(dir).filter((name) => /^check-.+\.log$/.test(name)).sort()) {
  const lines = [...read(file).matchAll(/^(.+): (\d+) checks passed, (\d+) failed/gm)];
  const last = lines.at(-1);
  add(last?.[1] ?? file, Number(last?.[2] ?? 0), Number(last?.[3] ?? 1), 0);
}
// A run that failed never reads as clean: a step that ended it without a test to show for it counts as one failure.
if (exitStatus !== '0' && totals.failed === 0) {
  totals.failed += 1;
  parts.push(`the step "${lastStep}" failed (exit ${exitStatus})`);
}
console.log(`suites (passed/failed/skipped): ${parts.join(', ') || 'none ran'}`);
console.log(`${totals.passed} passed, ${totals.failed} failed, ${totals.skipped} skipped`);
