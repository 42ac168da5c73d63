import { chmodSync, mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { ConfigError } from './config.ts';
import { signingSecret } from './signingSecret.ts';

describe('signingSecret', () => {
  const dirs: string[] = [];
  const freshDir = () => {
    const dir = mkdtempSync(join(tmpdir(), 'tidewater-signing-'));
    dirs.push(dir);
    return dir;
  };
  afterEach(() => dirs.splice(0).forEach((dir) => rmSync(dir, { recursive: true, force: true })));

  const embedded = { databaseUrl: undefined, dbConnectionApiUrl: undefined };

  it('takes JWT_SECRET when it is set, and writes nothing', () => {
    const dir = freshDir();
    expect(signingSecret({ ...embedded, jwtSecret: 'x'.repeat(40), dataDir: dir })).toBe('x'.repeat(40));
    expect(() => statSync(join(dir, 'jwt-secret'))).toThrow();
  });

  it('refuses a server database (or a connection service) without JWT_SECRET', () => {
    expect(() => signingSecret({ jwtSecret: undefined, dataDir: freshDir(), databaseUrl: 'postgres://db/bank', dbConnectionApiUrl: undefined })).toThrow(/JWT_SECRET is required with DATABASE_URL/);
    expect(() => signingSecret({ jwtSecret: undefined, dataDir: freshDir(), databaseUrl: undefined, dbConnectionApiUrl: 'http://vault' })).toThrow(ConfigError);
  });

  it('makes one secret per data directory and gives the same one every time', () => {
    const dir = freshDir();
    const first = signingSecret({ ...embedded, jwtSecret: undefined, dataDir: dir });
    expect(signingSecret({ ...embedded, jwtSecret: undefined, dataDir: dir })).toBe(first);
    expect(signingSecret({ ...embedded, jwtSecret: undefined, dataDir: freshDir() })).not.toBe(first);
  });

  it('tightens a kept secret that others could read to 0600', () => {
    const dir = freshDir();
    writeFileSync(join(dir, 'jwt-secret'), 'k'.repeat(64));
    chmodSync(join(dir, 'jwt-secret'), 0o644);
    expect(signingSecret({ ...embedded, jwtSecret: undefined, dataDir: dir })).toBe('k'.repeat(64));
    expect(statSync(join(dir, 'jwt-secret')).mode & 0o777).toBe(0o600);
  });

  it('refuses a kept file that holds no usable secret', () => {
    const dir = freshDir();
    writeFileSync(join(dir, 'jwt-secret'), 'short', { mode: 0o600 });
    expect(() => signingSecret({ ...embedded, jwtSecret: undefined, dataDir: dir })).toThrow(/no usable secret/);
  });

  it('makes a throwaway one for an in-memory database', () => {
    expect(signingSecret({ ...embedded, jwtSecret: undefined, dataDir: 'memory://' })).not.toBe(signingSecret({ ...embedded, jwtSecret: undefined, dataDir: 'memory://' }));
  });
});
