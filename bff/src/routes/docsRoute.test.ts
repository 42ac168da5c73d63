import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { docsContentSecurityPolicy } from '../http/securityHeaders.ts';
import { inlineScriptHashes } from './docsRoute.ts';

const sha = (text: string) => createHash('sha256').update(text, 'utf8').digest('base64');

describe('inlineScriptHashes', () => {
  it.each([
    ['one inline script', '<script>a()</script>', [sha('a()')]],
    ['a module with attributes', '<script type="module">\n b() \n</script>', [sha('\n b() \n')]],
    ['an external script is not hashed', '<script src="/x.js"></script><script>c()</script>', [sha('c()')]],
    ['the same script twice, once', '<script>d()</script><script>d()</script>', [sha('d()')]],
    ['none', '<p>no scripts</p>', []],
  ])('%s', (_name, html, hashes) => {
    expect(inlineScriptHashes(html)).toEqual(hashes);
  });

  it('puts them in script-src, with nothing unsafe', () => {
    const policy = docsContentSecurityPolicy(['abc=']);
    expect(policy).toContain("script-src 'self' 'sha256-abc='");
    expect(policy).not.toMatch(/script-src[^;]*unsafe/);
    expect(policy).toContain("frame-ancestors 'none'");
  });
});
