import { describe, expect, it } from 'vitest';
import { cookieName, cookiesAreSecure } from './cookies.ts';

describe('cookiesAreSecure', () => {
  it.each([
    ['auto, loopback, no proxy: explicitly local (npm start, the tests)', { cookieSecure: 'auto', host: '127.0.0.1', trustProxy: '' }, false],
    ['auto, ::1, no proxy', { cookieSecure: 'auto', host: '::1', trustProxy: '' }, false],
    ['auto, loopback behind a trusted proxy', { cookieSecure: 'auto', host: '127.0.0.1', trustProxy: 'loopback' }, true],
    ['auto, every interface (a container)', { cookieSecure: 'auto', host: '0.0.0.0', trustProxy: '' }, true],
    ['true, loopback', { cookieSecure: 'true', host: '127.0.0.1', trustProxy: '' }, true],
    ['false, every interface', { cookieSecure: 'false', host: '0.0.0.0', trustProxy: '1' }, false],
  ])('%s → %s', (_name, config, secure) => {
    expect(cookiesAreSecure(config)).toBe(secure);
    expect(cookieName('tw_session', config)).toBe(secure ? '__Host-tw_session' : 'tw_session');
  });
});
