import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { ConfigError } from './config.ts';
import { parsePinPepper, pinPeppers } from './pinPepper.ts';

const secret = (c: string) => c.repeat(40);

describe('PIN_PEPPER (adr/0053)', () => {
  const dirs: string[] = [];
  const freshDir = () => {
    const dir = mkdtempSync(join(tmpdir(), 'tidewater-pepper-'));
    dirs.push(dir);
    return dir;
  };
  afterEach(() => dirs.splice(0).forEach((dir) => rmSync(dir, { recursive: true, force: true })));
  const embedded = { pinPepper: undefined, databaseUrl: undefined, dbConnectionApiUrl: undefined };

  it('makes new verifiers with the first key and checks with every one', () => {
    const peppers = parsePinPepper(`p2:${secret('b')}, p1:${secret('a')}`);
    expect(peppers.current.keyId).toBe('p2');
    expect(peppers.current.key.toString()).toBe(secret('b'));
    expect([...peppers.byKeyId.keys()]).toEqual(['p2', 'p1']);
  });

  it('takes a bare secret as key p1', () => {
    expect(parsePinPepper(secret('a')).current).toEqual({ keyId: 'p1', key: Buffer.from(secret('a')) });
  });

  it.each([
    ['an empty key id', `:${secret('a')}`, /keyId:secret/],
    ['a key id with a dollar', `p$1:${secret('a')}`, /keyId:secret/],
    ['a short secret', 'p1:short', /at least 32 characters/],
    ['a key id twice', `p1:${secret('a')},p1:${secret('b')}`, /twice/],
  ])('refuses %s', (_, text, message) => {
    expect(() => parsePinPepper(text)).toThrow(ConfigError);
    expect(() => parsePinPepper(text)).toThrow(message);
  });

  it('is required with a server database or a connection service', () => {
    expect(() => pinPeppers({ ...embedded, dataDir: freshDir(), databaseUrl: 'postgres://db/bank' })).toThrow(/PIN_PEPPER is required with DATABASE_URL/);
    expect(() => pinPeppers({ ...embedded, dataDir: freshDir(), dbConnectionApiUrl: 'http://vault' })).toThrow(ConfigError);
    expect(pinPeppers({ ...embedded, pinPepper: `k:${secret('c')}`, dataDir: freshDir(), databaseUrl: 'postgres://db/bank' }).current.keyId).toBe('k');
  });

  it('on the embedded default makes one once, keeps it beside the data (0600) and gives it back', () => {
    const dir = freshDir();
    const first = pinPeppers({ ...embedded, dataDir: dir });
    expect(statSync(join(dir, 'pin-pepper')).mode & 0o777).toBe(0o600);
    expect(readFileSync(join(dir, 'pin-pepper'), 'utf8').trim()).toMatch(/^p1:[A-Za-z0-9_-]{64}$/);
    expect(pinPeppers({ ...embedded, dataDir: dir }).current.key).toEqual(first.current.key);
    expect(pinPeppers({ ...embedded, dataDir: freshDir() }).current.key).not.toEqual(first.current.key);
  });
});
