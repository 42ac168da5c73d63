/**
 * The docs' TypeScript samples (spec/scripts/codeSamples.mjs) are programs against this
 * client: every one type-checks against @tidewater/client and the spec's types, so a
 * sample cannot call a path, a parameter or a body member the client does not have.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { parse } from 'yaml';
import { afterAll, describe, expect, it } from 'vitest';
import { withCodeSamples } from '../../spec/scripts/codeSamples.mjs';

const clientDir = fileURLToPath(new URL('..', import.meta.url));
const document = parse(readFileSync(new URL('../../spec/openapi.yaml', import.meta.url), 'utf8'));
type Operation = { operationId?: string; 'x-codeSamples'?: Array<{ lang: string; source: string }> };
const samples = Object.values(withCodeSamples(document).paths as Record<string, Record<string, Operation>>)
  .flatMap((item) => Object.values(item))
  .filter((operation) => typeof operation === 'object' && operation.operationId)
  .map((operation) => ({ operationId: operation.operationId!, source: operation['x-codeSamples']!.find((sample) => sample.lang === 'TypeScript')!.source }));

describe("the docs' TypeScript samples", () => {
  // Inside the workspace, so '@tidewater/client' resolves as an integrator's project resolves it.
  const dir = mkdtempSync(join(clientDir, '.samples-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('type-check against @tidewater/client, one program per operation', () => {
    expect(samples.length).toBeGreaterThanOrEqual(21);
    const files = samples.map(({ operationId, source }) => {
      const file = join(dir, `${operationId}.ts`);
      writeFileSync(file, `declare const accessToken: string;\n${source}\nexport {};\n`);
      return file;
    });
    const config = ts.getParsedCommandLineOfConfigFile(join(clientDir, 'tsconfig.json'), {}, { ...ts.sys, onUnRecoverableConfigFileDiagnostic: () => undefined })!;
    const program = ts.createProgram(files, { ...config.options, noUnusedLocals: false });
    const problems = ts.getPreEmitDiagnostics(program).map((d) => `${d.file?.fileName ?? ''}: ${ts.flattenDiagnosticMessageText(d.messageText, '\n')}`);
    expect(problems).toEqual([]);
  });
});
