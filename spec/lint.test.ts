/**
 * The lint rules (redocly.yaml + plugins/tidewater.js) hold: the real document lints
 * clean, and each bad fixture trips exactly the rule it was written to break.
 */
import { execFile } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';

const specDir = path.dirname(fileURLToPath(import.meta.url));
const redoclyCli = path.resolve(specDir, '../node_modules/@redocly/cli/bin/cli.js');

/** The part of `redocly lint --format json` these tests read. */
interface LintReport {
  totals: { errors: number; warnings: number };
  problems: { ruleId: string; severity: string; message: string }[];
}

/** Lints one document with spec/redocly.yaml; a failing lint still yields its report. */
async function lint(document: string): Promise<LintReport> {
  const args = [redoclyCli, 'lint', document, '--config', 'redocly.yaml', '--format', 'json'];
  const stdout = await promisify(execFile)(process.execPath, args, { cwd: specDir })
    .then((result) => result.stdout)
    .catch((error: { stdout?: string }) => error.stdout ?? '');
  return JSON.parse(stdout) as LintReport;
}

describe('redocly lint', () => {
  it('passes spec/openapi.yaml with no errors and no warnings', async () => {
    const report = await lint('openapi.yaml');
    expect(report.problems).toEqual([]);
  });

  it.each([
    ['fixtures/bad-outage-responses.yaml', 'tidewater/outage-responses', 2],
    ['fixtures/bad-money-send-idempotency.yaml', 'tidewater/money-send-idempotency', 6],
    ['fixtures/bad-problem-json.yaml', 'tidewater/problem-json', 2],
    ['fixtures/bad-success-examples.yaml', 'tidewater/success-examples', 1],
    ['fixtures/bad-problem-examples.yaml', 'tidewater/problem-examples', 2],
  ])('%s trips only %s (%i times)', async (fixture, ruleId, times) => {
    const report = await lint(fixture);
    const errors = report.problems.filter((problem) => problem.severity === 'error');
    expect(errors.map((problem) => problem.ruleId)).toEqual(Array(times).fill(ruleId));
  });
});
