/**
 * Which PostgreSQL binaries the test clusters use: TIDEWATER_PG_BINARIES picks them, and
 * npm's are complete (initdb, pg_ctl, postgres of PostgreSQL 17, their libraries found).
 */
import { execFileSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { machineBinDir, npmBinDir, pgBinaries } from './pgBinaries.ts';

describe('pgBinaries', () => {
  it('uses the binaries TIDEWATER_PG_BINARIES names, else the machine\'s when present', () => {
    const wanted = process.env.TIDEWATER_PG_BINARIES;
    const expected = wanted === 'npm' || (!wanted && !machineBinDir()) ? 'npm' : 'machine';
    expect(pgBinaries().source).toBe(expected);
    if (process.getuid?.() === 0) expect(pgBinaries().runAs?.uid).not.toBe(0);
  });

  it("has npm's PostgreSQL 17, whose binaries run", () => {
    const version = execFileSync(`${npmBinDir()}/postgres`, ['--version'], { encoding: 'utf8' });
    expect(version).toMatch(/^postgres \(PostgreSQL\) 17\./);
    for (const binary of ['initdb', 'pg_ctl']) {
      expect(execFileSync(`${npmBinDir()}/${binary}`, ['--version'], { encoding: 'utf8' })).toContain('17.');
    }
  });
});
