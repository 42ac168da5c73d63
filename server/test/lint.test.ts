/**
 * `npm run lint` really refuses what it promises to (adr/0014): a domain file that
 * imports the http layer or Express, or an import circle, fails the layers' check
 * (dependency-cruiser), a statement outside the one SQL style fails eslint (adr/0055),
 * and an export nobody imports fails the unused check (knip). Each case writes its offending
 * code, runs the very command `npm run lint` runs, and puts everything back.
 */
import { spawnSync } from 'node:child_process';
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('../..', import.meta.url));
const scripts = (JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { scripts: Record<string, string> }).scripts;

/** Runs a root script's command line (as `npm run <name>` would, without npm's noise). */
function run(script: string): { status: number | null; output: string } {
  const [command, ...args] = scripts[script]!.split(' ');
  const result = spawnSync('npx', ['--no-install', command!, ...args], { cwd: root, encoding: 'utf8', timeout: 90_000 });
  return { status: result.status, output: `${result.stdout}${result.stderr}` };
}

describe('npm run lint', () => {
  it('fails on a domain file that imports the http layer or Express, naming the rule', () => {
    const probe = join(root, 'server/src/domain/lintProbeDomainToHttp.ts');
    writeFileSync(
      probe,
      [
        "import express from 'express';",
        "import { requestScope } from '../http/requestScope.ts';",
        'export const lintProbe = [express, requestScope];',
        '',
      ].join('\n'),
    );
    try {
      const { status, output } = run('lint:layers');
      expect(status).not.toBe(0);
      expect(output).toMatch(/domain-not-to-http: server\/src\/domain\/lintProbeDomainToHttp\.ts → server\/src\/http\/requestScope\.ts/);
      expect(output).toMatch(/domain-not-to-http: server\/src\/domain\/lintProbeDomainToHttp\.ts → node_modules\/express\//);
    } finally {
      rmSync(probe, { force: true });
    }
    expect(run('lint:layers').status).toBe(0);
  });

  it('fails on an import circle, naming the rule and every module on it', () => {
    const [first, second] = ['lintProbeCircleFirst', 'lintProbeCircleSecond'].map((name) => join(root, `server/src/data/${name}.ts`));
    writeFileSync(first!, ["import { second } from './lintProbeCircleSecond.ts';", 'export const first = () => second;', ''].join('\n'));
    writeFileSync(second!, ["import { first } from './lintProbeCircleFirst.ts';", 'export const second = () => first;', ''].join('\n'));
    try {
      const { status, output } = run('lint:layers');
      expect(status).not.toBe(0);
      expect(output).toMatch(/no-circular: server\/src\/data\/lintProbeCircleFirst\.ts → \s*server\/src\/data\/lintProbeCircleSecond\.ts →\s*server\/src\/data\/lintProbeCircleFirst\.ts/);
    } finally {
      rmSync(first!, { force: true });
      rmSync(second!, { force: true });
    }
    expect(run('lint:layers').status).toBe(0);
  });

  it('fails on a second AsyncLocalStorage in the API, pointing to the one scope', () => {
    const probe = join(root, 'server/src/data/lintProbeSecondStore.ts');
    writeFileSync(probe, ["import { AsyncLocalStorage } from 'node:async_hooks';", 'export const lintProbe = new AsyncLocalStorage<number>();', ''].join('\n'));
    try {
      const result = spawnSync('npx', ['--no-install', 'eslint', probe, join(root, 'server/src/request/asyncScope.ts')], { cwd: root, encoding: 'utf8', timeout: 90_000 });
      expect(result.status).not.toBe(0);
      expect(result.stdout).toMatch(/lintProbeSecondStore\.ts[\s\S]*one AsyncLocalStorage: make a slot of it with scopeSlot\(\)[\s\S]*no-restricted-imports/);
      // The one scope itself may hold the store: it is not reported.
      expect(result.stdout).not.toMatch(/request\/asyncScope\.ts\n/);
      expect(result.stdout).toMatch(/1 problem \(1 error/);
    } finally {
      rmSync(probe, { force: true });
    }
  });

  it("passes Prisma Client's API in server source and fails on spliced raw SQL or the adapter interface, in the commit gate too; a test may use them", () => {
    const probe = join(root, 'server/src/data/commitGate/lintProbeSqlStyle.ts');
    const probeTest = join(root, 'server/src/data/commitGate/lintProbeSqlStyle.test.ts');
    const body = [
      "import type { SqlQuery } from '@prisma/driver-adapter-utils';",
      "import type { PrismaClient } from '../../generated/prisma/client.ts';",
      "export const byModel = (db: PrismaClient) => db.user.findUnique({ where: { id: 'x' } });",
      'export const byRaw = (db: PrismaClient, id: string) => db.$queryRaw`SELECT ${id}::uuid AS id`;',
      "export const spliced = (db: PrismaClient, id: string) => db.$queryRawUnsafe(`SELECT '${id}'`);",
      'export type Query = SqlQuery;',
      '',
    ].join('\n');
    writeFileSync(probe, body);
    writeFileSync(probeTest, body);
    try {
      const result = spawnSync('npx', ['--no-install', 'eslint', probe, probeTest], { cwd: root, encoding: 'utf8', timeout: 90_000 });
      expect(result.status).not.toBe(0);
      expect(result.stdout).toMatch(/lintProbeSqlStyle\.ts\n\s+1:\d+\s+error\s+@prisma\/driver-adapter-utils is the interface for writing adapters/);
      expect(result.stdout).toMatch(/5:\d+\s+error\s+Write the statement as a \$queryRaw or \$executeRaw tagged template/);
      // The model API (line 3) and a $queryRaw tagged template (line 4) are the server's own way.
      expect(result.stdout).not.toMatch(/\s[34]:\d+\s+error/);
      expect(result.stdout).not.toMatch(/lintProbeSqlStyle\.test\.ts/);
      expect(result.stdout).toMatch(/2 problems \(2 errors/);
    } finally {
      rmSync(probe, { force: true });
      rmSync(probeTest, { force: true });
    }
  });

  it('fails on a reference to an ADR or a file that does not exist, naming each', () => {
    const page = join(root, 'adr/README.md');
    const original = readFileSync(page, 'utf8');
    // Written in parts, so this file does not name them itself.
    const [missingAdr, numberedDecision] = [['adr', '0999'].join('/'), ['ADR', 'decision 4'].join(' ')];
    writeFileSync(page, `${original}\nSee ${missingAdr}, ${numberedDecision}, [the gate](../server/src/data/nowhere.ts) and \`money/noSuchSend.ts\`; \`server/src/config.ts\` exists.\n`);
    try {
      const { status, output } = run('lint:references');
      expect(status).not.toBe(0);
      const line = original.split('\n').length + 1;
      expect(output).toContain(`adr/README.md:${line}: ${missingAdr}: no such ADR in adr/`);
      expect(output).toContain(`adr/README.md:${line}: "${numberedDecision}": name the ADR (adr/NNNN)`);
      expect(output).toContain(`adr/README.md:${line}: ../server/src/data/nowhere.ts: no such file`);
      expect(output).toContain(`adr/README.md:${line}: money/noSuchSend.ts: no such file`);
      expect(output).not.toContain('server/src/config.ts: no such file');
    } finally {
      writeFileSync(page, original);
    }
    expect(run('lint:references').status).toBe(0);
  });

  it('fails on an export nobody imports, naming it', () => {
    const used = join(root, 'server/src/domain/writtenText.ts');
    const original = readFileSync(used, 'utf8');
    writeFileSync(used, `${original}\n/** Lint probe: exported, imported by nobody. */\nexport function lintProbeUnusedExport(): void {}\n`);
    try {
      const { status, output } = run('lint:unused');
      expect(status).not.toBe(0);
      expect(output).toMatch(/Unused exports[\s\S]*lintProbeUnusedExport[\s\S]*server\/src\/domain\/writtenText\.ts/);
    } finally {
      writeFileSync(used, original);
    }
    expect(run('lint:unused').status).toBe(0);
  });
});
