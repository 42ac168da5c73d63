/**
 * The BFF's cookies (adr/0043): HttpOnly, SameSite=Strict, Path=/, and, unless the BFF is
 * explicitly local, `Secure` with the `__Host-` prefix, which a browser accepts only over
 * https, from this very host (no Domain), for the whole site: no subdomain, no plain-http
 * page and no man in the middle can plant or overwrite one.
 */
import type { CookieOptions, Request } from 'express';
import type { BffConfig } from '../config.ts';

/** What decides whether the cookies are secure. */
export type CookieConfig = Pick<BffConfig, 'cookieSecure' | 'host' | 'trustProxy'>;

const loopbackHosts = new Set(['127.0.0.1', '::1', 'localhost']);

/**
 * True unless COOKIE_SECURE=false, or `auto` on a BFF only this machine can reach: it
 * listens on loopback and trusts no proxy (a proxy in front means visitors from elsewhere,
 * over TLS one hopes; it gets Secure cookies).
 */
export function cookiesAreSecure({ cookieSecure, host, trustProxy }: CookieConfig): boolean {
  if (cookieSecure === 'true') return true;
  if (cookieSecure === 'false') return false;
  const explicitlyLocal = (loopbackHosts.has(host) || host.startsWith('127.')) && trustProxy === '';
  return !explicitlyLocal;
}

/** `base` as this BFF names it: `__Host-<base>` when secure (the prefix requires Secure). */
export function cookieName(base: string, config: CookieConfig): string {
  return cookiesAreSecure(config) ? `__Host-${base}` : base;
}

/** The attributes every cookie of ours carries (add `maxAge` where one should outlive the browser session). */
export function cookieOptions(config: CookieConfig): CookieOptions {
  return { path: '/', httpOnly: true, sameSite: 'strict', secure: cookiesAreSecure(config) };
}

/** The value of cookie `name` in the request, or undefined (also for one that is not well-formed). */
export function readCookie(req: Request, name: string): string | undefined {
  for (const pair of (req.headers.cookie ?? '').split(';')) {
    const at = pair.indexOf('=');
    if (at < 0 || pair.slice(0, at).trim() !== name) continue;
    try {
      return decodeURIComponent(pair.slice(at + 1).trim());
    } catch {
      return undefined;
    }
  }
  return undefined;
}
