/**
 * Security headers on every answer (helmet): a strict Content-Security-Policy for the SPA
 * and the BFF's JSON (scripts, styles, fonts, images and connections from this origin
 * only; no plugins, no <base>, never framed), no Referer sent anywhere, no MIME sniffing.
 * The rendered docs need inline scripts and styles, so `/docs` replaces the policy with
 * its own (`docsContentSecurityPolicy`); nothing else relaxes it.
 */
import type { RequestHandler } from 'express';
import helmet from 'helmet';

/** The SPA's policy: everything from 'self', nothing inline. */
const spaCspDirectives = {
  defaultSrc: ["'self'"],
  scriptSrc: ["'self'"],
  styleSrc: ["'self'"],
  imgSrc: ["'self'", 'data:'],
  fontSrc: ["'self'"],
  connectSrc: ["'self'"],
  objectSrc: ["'none'"],
  baseUri: ["'none'"],
  formAction: ["'self'"],
  frameAncestors: ["'none'"],
};

/** HSTS: a year, subdomains too. */
const strictTransportSecurity = 'max-age=31536000; includeSubDomains';

/**
 * The security-headers middleware. `https` (COOKIE_SECURE=true) adds
 * upgrade-insecure-requests and HSTS on every answer; otherwise HSTS goes on every answer
 * to a request that came over TLS (`req.secure`: directly, or through a trusted proxy's
 * X-Forwarded-Proto), so `COOKIE_SECURE=auto` behind TLS gets it too.
 */
export function securityHeaders(options: { https: boolean }): RequestHandler {
  const headers = helmet({
    contentSecurityPolicy: {
      useDefaults: false,
      directives: { ...spaCspDirectives, ...(options.https ? { upgradeInsecureRequests: [] } : {}) },
    },
    referrerPolicy: { policy: 'no-referrer' },
    xContentTypeOptions: true,
    xFrameOptions: { action: 'deny' },
    strictTransportSecurity: false,
  });
  return (req, res, next) => {
    if (options.https || req.secure) res.setHeader('Strict-Transport-Security', strictTransportSecurity);
    headers(req, res, next);
  };
}

/**
 * The docs' policy: Redocly's page runs two inline scripts (its colour-mode snippet and
 * its bundle), allowed by their SHA-256 hashes rather than 'unsafe-inline', and its
 * styled-components inject <style> elements at run time, which only 'unsafe-inline'
 * allows for styles. Everything else stays as strict as the SPA's.
 */
export function docsContentSecurityPolicy(inlineScriptHashes: readonly string[]): string {
  return [
    "default-src 'self'",
    `script-src 'self' ${inlineScriptHashes.map((hash) => `'sha256-${hash}'`).join(' ')}`.trim(),
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data:",
    "font-src 'self' data:",
    "connect-src 'self'",
    "worker-src 'self' blob:",
    "object-src 'none'",
    "base-uri 'none'",
    "form-action 'self'",
    "frame-ancestors 'none'",
  ].join('; ');
}
